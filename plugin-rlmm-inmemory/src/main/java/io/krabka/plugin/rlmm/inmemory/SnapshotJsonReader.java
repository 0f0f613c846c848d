package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.SnapshotJsonWriter.FORMAT_VERSION;

import com.fasterxml.jackson.databind.JsonNode;
import io.krabka.rlmm.cache.LeaderEpochSnapshot;
import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.PartitionSnapshot;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the JSON that {@link SnapshotJsonWriter} writes, strictly: every field present and of its type, no other
 * field, and the result checked for consistency by the snapshot records themselves.
 */
final class SnapshotJsonReader {

    private static final Pattern EPOCH_KEY = Pattern.compile("0|[1-9][0-9]*");

    private SnapshotJsonReader() {}

    /**
     * The snapshot a JSON tree holds.
     *
     * @throws UnsupportedSnapshotVersionException if the format version is newer than {@value #FORMAT_VERSION}
     * @throws InvalidSnapshotException            if the tree is not a valid snapshot
     */
    static MetadataSnapshot fromJson(JsonNode root, Path file) throws InvalidSnapshotException {
        StrictJsonObject json = StrictJsonObject.root(root, file);
        // The version comes first: a newer format may have other fields, and must be reported as newer.
        int version = json.intField("version");
        if (version > FORMAT_VERSION) {
            throw new UnsupportedSnapshotVersionException(file, version, FORMAT_VERSION);
        }
        if (version < FORMAT_VERSION) {
            throw json.error("version", "expected " + FORMAT_VERSION + ", found " + version);
        }
        json.rejectOtherFields("version", "partitions");
        List<PartitionSnapshot> partitions = new ArrayList<>();
        for (StrictJsonObject partition : json.objectArray("partitions")) {
            partitions.add(partitionFromJson(partition));
        }
        return json.build(() -> new MetadataSnapshot(partitions));
    }

    private static PartitionSnapshot partitionFromJson(StrictJsonObject json) throws InvalidSnapshotException {
        json.rejectOtherFields("topicId", "topic", "partition", "deleteState", "segments", "leaderEpochs");
        Uuid topicId = json.parsedField("topicId", Uuid::fromString);
        String topic = json.textField("topic");
        int partitionNumber = json.intField("partition");
        TopicIdPartition partition = json.build(() -> new TopicIdPartition(topicId, topic, partitionNumber));
        Optional<StrictJsonObject> deleteJson = json.optionalObjectField("deleteState");
        Optional<RemotePartitionDeleteMetadata> delete =
                deleteJson.isEmpty() ? Optional.empty() : Optional.of(deleteFromJson(deleteJson.get(), partition));
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        for (StrictJsonObject segment : json.objectArray("segments")) {
            segments.add(segmentFromJson(segment, partition));
        }
        List<LeaderEpochSnapshot> epochs = new ArrayList<>();
        for (StrictJsonObject epoch : json.objectArray("leaderEpochs")) {
            epochs.add(epochFromJson(epoch, partition));
        }
        return json.build(() -> new PartitionSnapshot(partition, delete, segments, epochs));
    }

    static RemotePartitionDeleteMetadata deleteFromJson(StrictJsonObject json, TopicIdPartition partition)
            throws InvalidSnapshotException {
        json.rejectOtherFields("state", "eventTimestampMs", "brokerId");
        RemotePartitionDeleteState state = json.parsedField("state", enumParser(RemotePartitionDeleteState.class));
        return new RemotePartitionDeleteMetadata(
                partition, state, json.longField("eventTimestampMs"), json.intField("brokerId"));
    }

    static RemoteLogSegmentMetadata segmentFromJson(StrictJsonObject json, TopicIdPartition partition)
            throws InvalidSnapshotException {
        json.rejectOtherFields(
                "segmentId",
                "startOffset",
                "endOffset",
                "maxTimestampMs",
                "brokerId",
                "eventTimestampMs",
                "segmentSizeInBytes",
                "customMetadata",
                "state",
                "segmentLeaderEpochs",
                "txnIdxEmpty");
        RemoteLogSegmentId id = new RemoteLogSegmentId(partition, json.parsedField("segmentId", Uuid::fromString));
        long startOffset = json.longField("startOffset");
        long endOffset = json.longField("endOffset");
        long maxTimestampMs = json.longField("maxTimestampMs");
        int brokerId = json.intField("brokerId");
        long eventTimestampMs = json.longField("eventTimestampMs");
        int size = json.intField("segmentSizeInBytes");
        Optional<CustomMetadata> custom = json.optionalParsedField(
                "customMetadata", text -> new CustomMetadata(Base64.getDecoder().decode(text)));
        RemoteLogSegmentState state = json.parsedField("state", enumParser(RemoteLogSegmentState.class));
        NavigableMap<Integer, Long> epochs =
                new TreeMap<>(json.longMap("segmentLeaderEpochs", SnapshotJsonReader::epoch));
        boolean txnIdxEmpty = json.booleanField("txnIdxEmpty");
        return json.build(() -> new RemoteLogSegmentMetadata(
                id,
                startOffset,
                endOffset,
                maxTimestampMs,
                brokerId,
                eventTimestampMs,
                size,
                custom,
                state,
                epochs,
                txnIdxEmpty));
    }

    private static LeaderEpochSnapshot epochFromJson(StrictJsonObject json, TopicIdPartition partition)
            throws InvalidSnapshotException {
        json.rejectOtherFields("epoch", "highestLogOffset", "referenced", "unreferenced");
        int epoch = json.intField("epoch");
        Optional<Long> highest = json.optionalLongField("highestLogOffset");
        NavigableMap<Long, RemoteLogSegmentId> referenced = new TreeMap<>();
        for (StrictJsonObject entry : json.objectArray("referenced")) {
            entry.rejectOtherFields("startOffset", "segmentId");
            long startOffset = entry.longField("startOffset");
            RemoteLogSegmentId id = new RemoteLogSegmentId(partition, entry.parsedField("segmentId", Uuid::fromString));
            if (referenced.put(startOffset, id) != null) {
                throw entry.error("startOffset", "offset " + startOffset + " is referenced twice");
            }
        }
        List<RemoteLogSegmentId> unreferenced =
                json.parsedArray("unreferenced", text -> new RemoteLogSegmentId(partition, Uuid.fromString(text)));
        if (Set.copyOf(unreferenced).size() != unreferenced.size()) {
            throw json.error("unreferenced", "lists a segment twice");
        }
        return json.build(() -> new LeaderEpochSnapshot(epoch, highest, referenced, Set.copyOf(unreferenced)));
    }

    private static int epoch(String key) {
        if (!EPOCH_KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("a leader epoch must be a whole number, not \"" + key + "\"");
        }
        return Integer.parseInt(key);
    }

    static <E extends Enum<E>> Function<String, E> enumParser(Class<E> type) {
        return text -> Arrays.stream(type.getEnumConstants())
                .filter(constant -> constant.name().equals(text))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "\"" + text + "\" is not one of " + Arrays.toString(type.getEnumConstants())));
    }
}
