package io.krabka.kernel.log;

import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The names of partition directories in a log directory, as Kafka's {@code LocalLog} gives and parses them:
 * {@code <topic>-<partition>} for a live log, {@code <topic>-<partition>.<unique id>-delete} for one being deleted.
 */
public final class LogDirNames {

    private static final Pattern DELETE_DIR = suffixed(LogFileUtils.DELETE_DIR_SUFFIX);
    private static final Pattern FUTURE_DIR = suffixed(LogFileUtils.FUTURE_DIR_SUFFIX);
    private static final Pattern STRAY_DIR = suffixed(LogFileUtils.STRAY_DIR_SUFFIX);
    private static final int MAX_NAME_LENGTH = 255;
    /**
     * The one directory beside the partitions that Kafka's {@code LogManager} accepts in a log directory: the
     * remote index cache. Anything else is refused, by Kafka and so by Krabka, so that each starts on the other's.
     */
    private static final String REMOTE_INDEX_CACHE = "remote-log-index-cache";

    private LogDirNames() {}

    private static Pattern suffixed(String suffix) {
        return Pattern.compile("^(\\S+)-(\\S+)\\.(\\S+)" + Pattern.quote(suffix));
    }

    /** {@code <topic>-<partition>}. */
    public static String logDirName(TopicPartition topicPartition) {
        return topicPartition.topic() + "-" + topicPartition.partition();
    }

    /**
     * {@code <topic>-<partition>.<unique id>-delete}, the topic cut so that the name stays within 255 characters:
     * where a deleted log's directory goes until its files are removed.
     */
    public static String logDeleteDirName(TopicPartition topicPartition) {
        String uniqueId = UUID.randomUUID().toString().replace("-", "");
        String suffix = "-" + topicPartition.partition() + "." + uniqueId + LogFileUtils.DELETE_DIR_SUFFIX;
        String topic = topicPartition.topic();
        return topic.substring(0, Math.min(topic.length(), MAX_NAME_LENGTH - suffix.length())) + suffix;
    }

    /** Whether {@code dir} is the remote index cache, not a partition's. */
    public static boolean isRemoteIndexCache(Path dir) {
        return REMOTE_INDEX_CACHE.equals(dir.getFileName().toString());
    }

    /** Whether {@code dir} is a log directory renamed for deletion. */
    public static boolean isDeleteDir(Path dir) {
        return DELETE_DIR.matcher(dir.getFileName().toString()).matches();
    }

    /**
     * The partition a log directory holds, from its name, as Kafka's {@code parseTopicPartitionName}.
     *
     * @throws IllegalArgumentException if the name is neither {@code <topic>-<partition>} nor that followed by
     *                                  {@code .<unique id>} and a delete, future or stray suffix
     */
    public static TopicPartition parseTopicPartitionName(Path dir) {
        String name = dir.getFileName().toString();
        if (!name.contains("-")
                || (name.endsWith(LogFileUtils.DELETE_DIR_SUFFIX)
                        && !DELETE_DIR.matcher(name).matches())
                || (name.endsWith(LogFileUtils.FUTURE_DIR_SUFFIX)
                        && !FUTURE_DIR.matcher(name).matches())
                || (name.endsWith(LogFileUtils.STRAY_DIR_SUFFIX)
                        && !STRAY_DIR.matcher(name).matches())) {
            throw notALogDir(dir);
        }
        boolean suffixed = name.endsWith(LogFileUtils.DELETE_DIR_SUFFIX)
                || name.endsWith(LogFileUtils.FUTURE_DIR_SUFFIX)
                || name.endsWith(LogFileUtils.STRAY_DIR_SUFFIX);
        String base = suffixed ? name.substring(0, name.lastIndexOf('.')) : name;
        int dash = base.lastIndexOf('-');
        String topic = base.substring(0, dash);
        String partition = base.substring(dash + 1);
        if (topic.isEmpty() || partition.isEmpty()) {
            throw notALogDir(dir);
        }
        try {
            return new TopicPartition(topic, Integer.parseInt(partition));
        } catch (IllegalArgumentException e) {
            throw notALogDir(dir);
        }
    }

    private static IllegalArgumentException notALogDir(Path dir) {
        return new IllegalArgumentException("Found directory " + dir.toAbsolutePath() + ", '" + dir.getFileName()
                + "' is not in the form of topic-partition or topic-partition.uniqueId-delete (if marked for "
                + "deletion). Kafka's log directories (and children) should only contain Kafka topic data.");
    }
}
