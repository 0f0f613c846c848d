package io.krabka.plugin.rlmm.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.rlmm.cache.LeaderEpochSnapshot;
import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.PartitionSnapshot;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import java.util.Base64;

/**
 * Writes a {@link MetadataSnapshot} as JSON, format version {@value #FORMAT_VERSION}. Ids are in Kafka's text form
 * (22 characters of URL-safe base64), custom metadata is base64, states are Kafka's enum names, and every list is
 * in a fixed order, so that the same content always gives the same bytes. {@link SnapshotJsonReader} reads it.
 */
final class SnapshotJsonWriter {

    /** The format version written, and the newest one read. */
    static final int FORMAT_VERSION = 1;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SnapshotJsonWriter() {}

    /** The JSON form of a snapshot. */
    static ObjectNode toJson(MetadataSnapshot snapshot) {
        ObjectNode root = NODES.objectNode().put("version", FORMAT_VERSION);
        ArrayNode partitions = root.putArray("partitions");
        snapshot.partitions().forEach(partition -> partitions.add(partitionToJson(partition)));
        return root;
    }

    private static ObjectNode partitionToJson(PartitionSnapshot partition) {
        TopicIdPartition topicIdPartition = partition.topicIdPartition();
        ObjectNode json = NODES.objectNode()
                .put("topicId", topicIdPartition.topicId().toString())
                .put("topic", topicIdPartition.topic())
                .put("partition", topicIdPartition.partition());
        json.set(
                "deleteState",
                partition
                        .deleteMetadata()
                        .<JsonNode>map(SnapshotJsonWriter::deleteToJson)
                        .orElse(NODES.nullNode()));
        ArrayNode segments = json.putArray("segments");
        partition.segments().forEach(segment -> segments.add(segmentToJson(segment)));
        ArrayNode epochs = json.putArray("leaderEpochs");
        partition.leaderEpochs().forEach(epoch -> epochs.add(epochToJson(epoch)));
        return json;
    }

    static ObjectNode deleteToJson(RemotePartitionDeleteMetadata delete) {
        return NODES.objectNode()
                .put("state", delete.state().name())
                .put("eventTimestampMs", delete.eventTimestampMs())
                .put("brokerId", delete.brokerId());
    }

    static ObjectNode segmentToJson(RemoteLogSegmentMetadata segment) {
        ObjectNode json = NODES.objectNode()
                .put("segmentId", segment.remoteLogSegmentId().id().toString())
                .put("startOffset", segment.startOffset())
                .put("endOffset", segment.endOffset())
                .put("maxTimestampMs", segment.maxTimestampMs())
                .put("brokerId", segment.brokerId())
                .put("eventTimestampMs", segment.eventTimestampMs())
                .put("segmentSizeInBytes", segment.segmentSizeInBytes())
                .put(
                        "customMetadata",
                        segment.customMetadata()
                                .map(custom -> Base64.getEncoder().encodeToString(custom.value()))
                                .orElse(null))
                .put("state", segment.state().name());
        ObjectNode epochs = json.putObject("segmentLeaderEpochs");
        segment.segmentLeaderEpochs().forEach((epoch, offset) -> epochs.put(epoch.toString(), offset));
        return json.put("txnIdxEmpty", segment.txnIdxEmpty());
    }

    private static ObjectNode epochToJson(LeaderEpochSnapshot epoch) {
        ObjectNode json = NODES.objectNode()
                .put("epoch", epoch.epoch())
                .put("highestLogOffset", epoch.highestLogOffset().orElse(null));
        ArrayNode referenced = json.putArray("referenced");
        epoch.referenced()
                .forEach((offset, id) -> referenced
                        .addObject()
                        .put("startOffset", offset)
                        .put("segmentId", id.id().toString()));
        ArrayNode unreferenced = json.putArray("unreferenced");
        epoch.unreferenced().stream()
                .map(RemoteLogSegmentId::id)
                .sorted()
                .forEach(id -> unreferenced.add(id.toString()));
        return json;
    }
}
