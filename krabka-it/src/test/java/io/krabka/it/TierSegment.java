package io.krabka.it;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A segment in a remote tier laid out as Kafka's LocalTieredStorage lays it out, identified by nothing but its
 * files' names: {@code <dir>/kafka-tiered-storage/<topic>-<partition>-<topicId>/<startOffset:020d>-<segmentId><suffix>}.
 *
 * @param partition   the partition, from the directory name
 * @param segmentId   the remote segment id, from the file names
 * @param startOffset the segment's base offset, from the file names
 * @param files       its files by suffix ({@code .log}, {@code .index}, ...)
 */
record TierSegment(TopicIdPartition partition, Uuid segmentId, long startOffset, Map<String, Path> files) {
    static final String ROOT_DIR_NAME = "kafka-tiered-storage";
    static final String LOG = ".log";
    static final String TXN_INDEX = ".txnindex";
    /** Every file a complete segment has; only the transaction index is optional. */
    static final List<String> REQUIRED = List.of(LOG, ".index", ".timeindex", ".snapshot", ".leader_epoch_checkpoint");

    private static final Pattern PARTITION_DIR = Pattern.compile("([a-zA-Z0-9._-]+)-(\\d+)-([a-zA-Z0-9_-]{22})");
    private static final Pattern SEGMENT_FILE = Pattern.compile("(\\d{20})-([a-zA-Z0-9_-]{22})(\\.[a-z_]+)");

    /** Freezes the files, in suffix order. */
    TierSegment {
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    }

    /** The segment file. */
    Path log() {
        return files.get(LOG);
    }

    /** The transaction index, if the writer wrote one. */
    Optional<Path> txnIndex() {
        return Optional.ofNullable(files.get(TXN_INDEX));
    }

    /** The file of an index type; for {@link IndexType#TRANSACTION} only when {@link #txnIndex()} is present. */
    Path file(IndexType type) {
        return files.get(suffix(type));
    }

    /** Kafka's file suffix for an index type. */
    static String suffix(IndexType type) {
        return switch (type) {
            case OFFSET -> ".index";
            case TIMESTAMP -> ".timeindex";
            case PRODUCER_SNAPSHOT -> ".snapshot";
            case TRANSACTION -> TXN_INDEX;
            case LEADER_EPOCH -> ".leader_epoch_checkpoint";
        };
    }

    /**
     * Every segment under {@code dir} (a LocalTieredStorage {@code dir}), in start-offset order per partition.
     *
     * @throws AssertionError if a name does not follow the layout, or a segment lacks a required file
     */
    static List<TierSegment> scan(Path dir) throws IOException {
        Path root = dir.resolve(ROOT_DIR_NAME);
        List<TierSegment> segments = new ArrayList<>();
        for (Path partitionDir : list(root)) {
            Matcher p = match(PARTITION_DIR, partitionDir);
            TopicIdPartition partition =
                    new TopicIdPartition(Uuid.fromString(p.group(3)), p.group(1), Integer.parseInt(p.group(2)));
            Map<String, Map<String, Path>> filesById = new HashMap<>();
            Map<String, Long> startById = new HashMap<>();
            for (Path file : list(partitionDir)) {
                Matcher f = match(SEGMENT_FILE, file);
                long start = Long.parseLong(f.group(1));
                Long earlier = startById.putIfAbsent(f.group(2), start);
                if (earlier != null && earlier != start) {
                    throw new AssertionError(
                            "segment " + f.group(2) + " has files at two start offsets: " + earlier + " and " + start);
                }
                filesById.computeIfAbsent(f.group(2), id -> new HashMap<>()).put(f.group(3), file);
            }
            filesById.forEach((id, files) -> {
                List<String> missing =
                        REQUIRED.stream().filter(s -> !files.containsKey(s)).toList();
                if (!missing.isEmpty()) {
                    throw new AssertionError("segment " + id + " in " + partitionDir + " is incomplete: no " + missing);
                }
                segments.add(new TierSegment(partition, Uuid.fromString(id), startById.get(id), files));
            });
        }
        segments.sort(Comparator.comparing((TierSegment s) -> s.partition().toString())
                .thenComparingLong(TierSegment::startOffset));
        return segments;
    }

    private static Matcher match(Pattern pattern, Path path) {
        Matcher matcher = pattern.matcher(path.getFileName().toString());
        if (!matcher.matches()) {
            throw new AssertionError("not named as in Kafka's LocalTieredStorage layout: " + path);
        }
        return matcher;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        }
    }
}
