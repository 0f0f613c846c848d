// Run by KafkaWrittenTierIT in a child JVM on Apache Kafka 4.3.1's jars (java -cp <jars> KafkaTierReader.java):
// Kafka's own LocalTieredStorage reads a tier that Krabka's local plugin wrote, and this writes what it read
// to files for the test to compare. Kafka's classes only; no Krabka code is on this class path.
//
// usage: KafkaTierReader <tier dir> <manifest> <out dir>
// manifest: one segment per line, "topic partition topicId segmentId startOffset endOffset maxTimestamp
//           sizeInBytes epoch:offset[,epoch:offset...]"
// out: <segmentId>.log (the whole segment) and <segmentId>.<IndexType> per index, or <segmentId>.<IndexType>.not-found
//      holding the message of the RemoteResourceNotFoundException that Kafka threw instead.

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.server.log.remote.storage.LocalTieredStorage;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentId;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteResourceNotFoundException;
import org.apache.kafka.server.log.remote.storage.RemoteStorageManager.IndexType;

public final class KafkaTierReader {
    public static void main(String[] args) throws Exception {
        Path tier = Path.of(args[0]);
        List<String> manifest = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
        Path out = Files.createDirectories(Path.of(args[2]));
        try (LocalTieredStorage storage = new LocalTieredStorage()) {
            storage.configure(Map.of(LocalTieredStorage.STORAGE_DIR_CONFIG, tier.toString(), LocalTieredStorage.BROKER_ID, 1));
            for (String line : manifest) {
                RemoteLogSegmentMetadata metadata = metadata(line.trim().split("\\s+"));
                String id = metadata.remoteLogSegmentId().id().toString();
                try (InputStream segment = storage.fetchLogSegment(metadata, 0)) {
                    Files.write(out.resolve(id + ".log"), segment.readAllBytes());
                }
                for (IndexType type : IndexType.values()) {
                    try (InputStream index = storage.fetchIndex(metadata, type)) {
                        Files.write(out.resolve(id + "." + type), index.readAllBytes());
                    } catch (RemoteResourceNotFoundException e) {
                        Files.writeString(out.resolve(id + "." + type + ".not-found"), String.valueOf(e.getMessage()));
                    }
                }
            }
        }
    }

    private static RemoteLogSegmentMetadata metadata(String[] f) {
        TopicIdPartition partition = new TopicIdPartition(Uuid.fromString(f[2]), Integer.parseInt(f[1]), f[0]);
        Map<Integer, Long> epochs = new TreeMap<>();
        for (String entry : f[8].split(",")) {
            String[] epochOffset = entry.split(":");
            epochs.put(Integer.parseInt(epochOffset[0]), Long.parseLong(epochOffset[1]));
        }
        return new RemoteLogSegmentMetadata(new RemoteLogSegmentId(partition, Uuid.fromString(f[3])),
                Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), 1, System.currentTimeMillis(),
                Integer.parseInt(f[7]), epochs);
    }
}
