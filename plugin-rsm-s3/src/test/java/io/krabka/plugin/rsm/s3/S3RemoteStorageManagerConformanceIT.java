package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import io.krabka.testservers.RadosgwBuckets;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit against the plugin on a real Ceph radosgw. Each rule gets its own key prefix. Files of
 * 8 MiB and more go in 5 MiB parts, so the kit's large segment (64 MiB, above the IT's heap) is a multipart upload
 * of 13 parts, and its small segments single PUTs.
 */
class S3RemoteStorageManagerConformanceIT extends RemoteStorageManagerConformance {
    @RegisterExtension
    static final RadosgwBuckets RGW = new RadosgwBuckets();

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        Map<String, Object> settings = S3Settings.of(
                RGW.server(),
                RGW.server().endpoint(),
                RGW.bucket(),
                "kit/" + scratch.getParent().getFileName());
        settings.put(S3StoreConfig.MULTIPART_THRESHOLD_BYTES, 8L << 20);
        settings.put(S3StoreConfig.MULTIPART_PART_SIZE_BYTES, 5L << 20);
        RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create();
        rsm.configure(settings);
        return rsm;
    }

    /** Small enough for radosgw's memstore, larger than the heap failsafe gives. */
    @Override
    protected int largeSegmentBytes() {
        return 128 << 20;
    }

    /** Kafka's longest topic name (249 characters) makes keys of some 350 bytes: the server must take them. */
    @Test
    void aTopicWithKafkasLongestNameIsStoredAndReadBack(@TempDir Path dir) throws Exception {
        TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "t".repeat(249), 0);
        TestSegment segment = TestSegment.write(dir, 4096, partition);
        try (RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create()) {
            rsm.configure(S3Settings.of(RGW.server(), RGW.server().endpoint(), RGW.bucket(), "long-names"));
            rsm.copyLogSegmentData(segment.metadata(), segment.data());
            assertArrayEquals(segment.logSha256(), TestSegment.sha256(rsm.fetchLogSegment(segment.metadata(), 0)));
            try (InputStream checkpoint = rsm.fetchIndex(segment.metadata(), IndexType.LEADER_EPOCH)) {
                assertArrayEquals("0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII), checkpoint.readAllBytes());
            }
        }
    }

    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(
                heap < largeSegmentBytes(),
                "the failsafe -Xmx gives a heap of " + heap + " bytes, not below the kit's large segment of "
                        + largeSegmentBytes() + " bytes");
    }
}
