package io.krabka.kernel.restore.metadata;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The partitions a snapshot of the {@code inmemory} plugin holds: {@code partitions[]}'s {@code topicId},
 * {@code topic} and {@code partition}, as the plugin's README documents the file. The SPI answers, as Kafka's
 * {@code RemoteLogMetadataManager} does, only for a partition named in full, topic name included, and lists none;
 * the restore needs the list to name the topics of the legacy layout, whose keys carry only topic ids, and to find
 * partitions the archive lacks. Only these three fields are read here, from a file the plugin has already loaded,
 * and so checked, whole; everything else about the segments comes through the SPI.
 */
final class SnapshotPartitions {
    private static final JsonFactory JSON = new JsonFactory();

    private SnapshotPartitions() {}

    /**
     * The partitions of {@code snapshot}.
     *
     * @throws IOException if it cannot be read or lacks one of the three fields
     */
    static Set<TopicIdPartition> read(Path snapshot) throws IOException {
        Set<TopicIdPartition> partitions = new HashSet<>();
        try (JsonParser parser = JSON.createParser(snapshot.toFile())) {
            expect(parser, parser.nextToken() == JsonToken.START_OBJECT, "not a JSON object");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean isPartitions = parser.currentName().equals("partitions");
                JsonToken value = parser.nextToken();
                if (isPartitions) {
                    expect(parser, value == JsonToken.START_ARRAY, "partitions is not an array");
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        partitions.add(partition(parser));
                    }
                } else {
                    parser.skipChildren();
                }
            }
        }
        return partitions;
    }

    private static TopicIdPartition partition(JsonParser parser) throws IOException {
        String topicId = null;
        String topic = null;
        Integer partition = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "topicId" -> topicId = parser.getValueAsString();
                case "topic" -> topic = parser.getValueAsString();
                case "partition" -> partition = parser.getIntValue();
                default -> parser.skipChildren();
            }
        }
        expect(
                parser,
                topicId != null && topic != null && partition != null,
                "a partition without its topicId, topic or partition");
        return new TopicIdPartition(Uuid.fromString(topicId), topic, partition);
    }

    private static void expect(JsonParser parser, boolean condition, String problem) throws IOException {
        if (!condition) {
            throw new IOException(problem + " at " + parser.currentLocation().offsetDescription());
        }
    }
}
