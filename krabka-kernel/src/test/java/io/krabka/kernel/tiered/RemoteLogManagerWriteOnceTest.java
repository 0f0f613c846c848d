package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.krabka.kernel.tiered.RemoteLogManagerMetrics.Counter;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote log manager over a write-once archive: it deletes nothing, and abandons the copies that fail. */
class RemoteLogManagerWriteOnceTest {
    private static final int FILES_PER_SEGMENT = RemoteLogManagerTest.FILES_PER_SEGMENT;

    @TempDir
    Path dir;

    private TieredBroker broker;
    private final AtomicReference<WriteOnceTier> tier = new AtomicReference<>();

    @AfterEach
    void close() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }

    private void start(int failingCopies) throws IOException {
        broker = new TieredBroker(dir, Map.of(), rsm -> {
            WriteOnceTier archive = new WriteOnceTier(rsm, failingCopies);
            tier.set(archive);
            return archive;
        });
    }

    @Test
    void retentionDeletesNothingKeepsTheLogStartAndCountsEachRefusalOnce() throws Exception {
        start(0);
        TopicIdPartition tp = broker.topic("orders", Map.of("remote.storage.enable", "true", "retention.ms", "1000"));
        broker.appendSegments(tp, 3, 2);
        broker.runTasks();
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());

        broker.time.sleep(60_000);
        broker.runTasks();
        broker.runTasks();

        assertEquals(
                3,
                broker.remoteSegments(tp).stream()
                        .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                        .count());
        assertEquals(0, broker.log(tp).logStartOffset(), "what is archived stays readable");
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());
        assertEquals(0, tier.get().deleteCalls.get(), "the broker never asks an archive to delete");
        assertEquals(
                3,
                broker.metrics().count(Counter.REMOTE_ARCHIVE_DELETES_REFUSED, "orders"),
                "each kept segment counted once, however many runs");
        assertEquals(0, broker.metrics().count(Counter.REMOTE_DELETE_REQUESTS, "orders"));
    }

    @Test
    void deletingTheTopicLeavesTheArchiveAsItIs() throws Exception {
        start(0);
        TopicIdPartition tp = broker.topic("orders", Map.of("remote.storage.enable", "true"));
        broker.appendSegments(tp, 2, 1);
        broker.runTasks();
        broker.deleteTopic("orders");
        broker.runTasks();
        assertEquals(2 * FILES_PER_SEGMENT, broker.remoteFiles().size());
        assertEquals(0, tier.get().deleteCalls.get());
        assertEquals(2, broker.metrics().totalCount(Counter.REMOTE_ARCHIVE_DELETES_REFUSED));
    }

    @Test
    void aFailedCopyIsAbandonedNotDeletedAndRetriedUnderAFreshSegmentId() throws Exception {
        start(1);
        TopicIdPartition tp = broker.topic("orders", Map.of("remote.storage.enable", "true"));
        broker.appendSegments(tp, 1, 2);
        broker.runTasks();
        broker.runTasks();

        List<RemoteLogSegmentMetadata> segments = broker.remoteSegments(tp);
        assertEquals(1, tier.get().abandoned.size());
        RemoteLogSegmentMetadata abandoned = tier.get().abandoned.getFirst();
        RemoteLogSegmentMetadata finished = segments.stream()
                .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .findFirst()
                .orElseThrow();
        assertEquals(abandoned.startOffset(), finished.startOffset());
        assertNotEquals(abandoned.remoteLogSegmentId(), finished.remoteLogSegmentId());
        assertEquals(
                List.of(finished),
                segments,
                "the abandoned copy went through DELETE_SEGMENT_FINISHED, which the metadata manager forgets");
        assertEquals(2 * FILES_PER_SEGMENT, broker.remoteFiles().size(), "the abandoned copy's files stay");
        assertEquals(0, tier.get().deleteCalls.get());
        assertEquals(1, broker.metrics().count(Counter.REMOTE_ARCHIVE_ABANDONED_COPIES, "orders"));
    }
}
