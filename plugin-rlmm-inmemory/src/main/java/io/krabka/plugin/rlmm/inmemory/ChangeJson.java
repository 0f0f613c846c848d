package io.krabka.plugin.rlmm.inmemory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * A {@link MetadataChange} as one compact JSON object, in the snapshot's terms ({@link SnapshotJsonWriter}): the
 * kind of change, the partition, and the segment, update or deletion step. Read as strictly as a snapshot.
 */
final class ChangeJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ChangeJson() {}

    /** The JSON bytes of a change. */
    static byte[] toBytes(MetadataChange change) {
        ObjectNode json = switch (change) {
            case MetadataChange.AddSegment add ->
                partition("addSegment", add.segment().topicIdPartition())
                        .set("segment", SnapshotJsonWriter.segmentToJson(add.segment()));
            case MetadataChange.UpdateSegment update ->
                partition("updateSegment", update.update().topicIdPartition())
                        .set("update", updateToJson(update.update()));
            case MetadataChange.PutPartitionDelete delete ->
                partition("putPartitionDelete", delete.step().topicIdPartition())
                        .set("step", SnapshotJsonWriter.deleteToJson(delete.step()));
        };
        try {
            return MAPPER.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            // A tree of plain nodes always serializes.
            throw new IllegalStateException("cannot write a journal record", e);
        }
    }

    /**
     * The change in {@code bytes}.
     *
     * @throws InvalidSnapshotException if they are not a change, naming {@code journal}
     */
    static MetadataChange fromBytes(byte[] bytes, Path journal) throws InvalidSnapshotException {
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (java.io.IOException e) {
            throw new InvalidSnapshotException(journal, "a journal record is not JSON: " + e.getMessage(), e);
        }
        if (root == null) {
            throw new InvalidSnapshotException(journal, "a journal record is empty");
        }
        StrictJsonObject json = StrictJsonObject.root(root, journal);
        String kind = json.textField("change");
        Uuid topicId = json.parsedField("topicId", Uuid::fromString);
        String topic = json.textField("topic");
        int partitionNumber = json.intField("partition");
        TopicIdPartition partition = json.build(() -> new TopicIdPartition(topicId, topic, partitionNumber));
        return switch (kind) {
            case "addSegment" -> {
                json.rejectOtherFields("change", "topicId", "topic", "partition", "segment");
                yield new MetadataChange.AddSegment(
                        SnapshotJsonReader.segmentFromJson(json.objectField("segment"), partition));
            }
            case "updateSegment" -> {
                json.rejectOtherFields("change", "topicId", "topic", "partition", "update");
                yield new MetadataChange.UpdateSegment(updateFromJson(json.objectField("update"), partition));
            }
            case "putPartitionDelete" -> {
                json.rejectOtherFields("change", "topicId", "topic", "partition", "step");
                yield new MetadataChange.PutPartitionDelete(
                        SnapshotJsonReader.deleteFromJson(json.objectField("step"), partition));
            }
            default -> throw json.error("change", "unknown change \"" + kind + "\"");
        };
    }

    private static ObjectNode partition(String kind, TopicIdPartition partition) {
        return NODES.objectNode()
                .put("change", kind)
                .put("topicId", partition.topicId().toString())
                .put("topic", partition.topic())
                .put("partition", partition.partition());
    }

    private static ObjectNode updateToJson(RemoteLogSegmentMetadataUpdate update) {
        return NODES.objectNode()
                .put("segmentId", update.remoteLogSegmentId().id().toString())
                .put("eventTimestampMs", update.eventTimestampMs())
                .put(
                        "customMetadata",
                        update.customMetadata()
                                .map(custom -> Base64.getEncoder().encodeToString(custom.value()))
                                .orElse(null))
                .put("state", update.state().name())
                .put("brokerId", update.brokerId());
    }

    private static RemoteLogSegmentMetadataUpdate updateFromJson(StrictJsonObject json, TopicIdPartition partition)
            throws InvalidSnapshotException {
        json.rejectOtherFields("segmentId", "eventTimestampMs", "customMetadata", "state", "brokerId");
        RemoteLogSegmentId id = new RemoteLogSegmentId(partition, json.parsedField("segmentId", Uuid::fromString));
        long eventTimestampMs = json.longField("eventTimestampMs");
        Optional<CustomMetadata> custom = json.optionalParsedField(
                "customMetadata", text -> new CustomMetadata(Base64.getDecoder().decode(text)));
        RemoteLogSegmentState state =
                json.parsedField("state", SnapshotJsonReader.enumParser(RemoteLogSegmentState.class));
        int brokerId = json.intField("brokerId");
        return json.build(() -> new RemoteLogSegmentMetadataUpdate(id, eventTimestampMs, custom, state, brokerId));
    }
}
