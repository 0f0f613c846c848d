package com.example.krabka.rsm.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.RecordingPluginMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the kit does not look at: the files the tier leaves, and how it treats a damaged pack. */
class PackedRemoteStorageManagerTest {
    private static final byte[] LOG = "a log segment's records".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OFFSET_INDEX = "offset index".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TIME_INDEX = "time index".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SNAPSHOT = "producer snapshot".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EPOCHS = "0\n1\n0 0\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TXN_INDEX = "aborted transactions".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path work;
    private Path tier;
    private Path local;
    private PackedRemoteStorageManager rsm;
    private final TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "orders", 3);

    @BeforeEach
    void configure() throws IOException {
        tier = Files.createDirectory(work.resolve("tier"));
        local = Files.createDirectory(work.resolve("local"));
        rsm = new PackedRemoteStorageManager();
        rsm.configure(Map.of("dir", tier.toString()));
    }

    @AfterEach
    void close() {
        rsm.close();
    }

    @Test
    void aCopyIsMeasuredByTheMetricsTheKernelHandsOver() throws Exception {
        RecordingPluginMetrics metrics = new RecordingPluginMetrics();
        rsm.withPluginMetrics(metrics);
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(true));
        Path pack = tier.resolve(partition.topicId() + "-3").resolve(segment.remoteLogSegmentId().id() + ".pack");
        assertEquals(1, metrics.count("CopyRateAndTimeMs"));
        assertTrue(metrics.totalNanos("CopyRateAndTimeMs") > 0);
        assertEquals(Files.size(pack), metrics.count("CopyBytesPerSec"));
        assertEquals(Optional.of(0L), metrics.gauge("CopiesInProgress"));
    }

    @Test
    void eachSegmentIsOneWholePackFile() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(true));
        Path pack = tier.resolve(partition.topicId() + "-3").resolve(segment.remoteLogSegmentId().id() + ".pack");
        assertEquals(List.of(pack), files());
        long parts = LOG.length + OFFSET_INDEX.length + TIME_INDEX.length + SNAPSHOT.length + EPOCHS.length + TXN_INDEX.length;
        assertEquals(SegmentPack.HEADER_BYTES + parts, Files.size(pack));
        assertArrayEquals(TXN_INDEX, readAll(rsm.fetchIndex(segment, IndexType.TRANSACTION)));
        assertArrayEquals(EPOCHS, readAll(rsm.fetchIndex(segment, IndexType.LEADER_EPOCH)));
    }

    @Test
    void aFailedCopyLeavesNoFileBehind() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        LogSegmentData data = data(true);
        Files.delete(data.producerSnapshotIndex());
        RemoteStorageException failure = assertThrows(RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment, data));
        assertTrue(failure.getMessage().contains(segment.remoteLogSegmentId().toString()), failure.getMessage());
        assertEquals(List.of(), files());
    }

    @Test
    void aTruncatedPackIsReportedAsDamagedNotServed() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(false));
        Path pack = files().getFirst();
        try (FileChannel file = FileChannel.open(pack, StandardOpenOption.WRITE)) {
            file.truncate(file.size() - 1);
        }
        assertDamaged(segment, pack, "bytes where its header promises");
    }

    @Test
    void aFileThatIsNoPackIsReportedAsDamaged() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(false));
        Path pack = files().getFirst();
        Files.write(pack, LOG);
        assertDamaged(segment, pack, "does not start with a pack header");
    }

    @Test
    void aSegmentCopiedWithoutTransactionIndexHasNone() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(false));
        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(segment, IndexType.TRANSACTION));
        assertArrayEquals(SNAPSHOT, readAll(rsm.fetchIndex(segment, IndexType.PRODUCER_SNAPSHOT)));
        assertArrayEquals(LOG, readAll(rsm.fetchLogSegment(segment, 0)));
    }

    @Test
    void aClosedInstanceRefusesCalls() throws Exception {
        RemoteLogSegmentMetadata segment = segment();
        rsm.copyLogSegmentData(segment, data(true));
        InputStream open = rsm.fetchLogSegment(segment, 0);
        rsm.close();
        IllegalStateException refusal = assertThrows(IllegalStateException.class, () -> rsm.fetchLogSegment(segment, 0));
        assertEquals("the pack remote storage manager is closed", refusal.getMessage());
        assertArrayEquals(LOG, readAll(open), "a stream returned before close stays readable");
    }

    private void assertDamaged(RemoteLogSegmentMetadata segment, Path pack, String why) {
        for (var fetch : List.<ThrowingFetch>of(() -> rsm.fetchLogSegment(segment, 0), () -> rsm.fetchIndex(segment, IndexType.OFFSET))) {
            RemoteStorageException failure = assertThrows(RemoteStorageException.class, fetch::run);
            assertFalse(failure instanceof RemoteResourceNotFoundException, "a damaged pack is not a missing one: " + failure);
            assertTrue(failure.getMessage().startsWith("the pack " + pack + " is damaged: "), failure.getMessage());
            assertTrue(failure.getMessage().contains(why), failure.getMessage());
        }
    }

    @FunctionalInterface
    private interface ThrowingFetch {
        InputStream run() throws RemoteStorageException;
    }

    private RemoteLogSegmentMetadata segment() {
        return new RemoteLogSegmentMetadata(RemoteLogSegmentId.generateNew(partition), 100, 199, 1_000L, 1, 2_000L,
                LOG.length, new TreeMap<>(Map.of(0, 100L)), false);
    }

    private LogSegmentData data(boolean transactionIndex) throws IOException {
        Path dir = Files.createTempDirectory(local, "segment");
        return new LogSegmentData(Files.write(dir.resolve("00000000000000000100.log"), LOG),
                Files.write(dir.resolve("00000000000000000100.index"), OFFSET_INDEX),
                Files.write(dir.resolve("00000000000000000100.timeindex"), TIME_INDEX),
                transactionIndex ? Optional.of(Files.write(dir.resolve("00000000000000000100.txnindex"), TXN_INDEX)) : Optional.empty(),
                Files.write(dir.resolve("00000000000000000200.snapshot"), SNAPSHOT),
                ByteBuffer.wrap(EPOCHS));
    }

    /** Every regular file in the tier, hidden ones included. */
    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.walk(tier)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
