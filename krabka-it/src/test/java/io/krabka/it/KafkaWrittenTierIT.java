package io.krabka.it;

import static io.krabka.spi.storage.IndexType.LEADER_EPOCH;
import static io.krabka.spi.storage.IndexType.OFFSET;
import static io.krabka.spi.storage.IndexType.PRODUCER_SNAPSHOT;
import static io.krabka.spi.storage.IndexType.TIMESTAMP;
import static io.krabka.spi.storage.IndexType.TRANSACTION;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.LogEntry.Marker;
import io.krabka.it.LoggedBatch.LoggedRecord;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.OffsetIndex;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TimeIndex;
import io.krabka.kernel.log.TimestampOffset;
import io.krabka.kernel.log.TransactionIndex;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.kernel.tiered.RemoteIndexCache;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code local} plugin against a remote tier written by Apache Kafka's own LocalTieredStorage: Kafka 4.3.1
 * tiers a topic that kafka-clients filled with known records, then the plugin, loaded from the distribution by
 * the kernel's plugin discovery, serves every segment and index Kafka wrote byte for byte; the segments hold
 * exactly the records produced; Kafka's indexes, decoded by the kernel, point where the batches are; the kernel's
 * RemoteIndexCache over the plugin finds what a linear scan finds. And the reverse: Kafka's LocalTieredStorage
 * reads byte for byte a tier that the plugin wrote.
 */
class KafkaWrittenTierIT {
    private static final String TOPIC = "tiered";
    private static final List<IndexType> ALWAYS_WRITTEN = List.of(OFFSET, TIMESTAMP, PRODUCER_SNAPSHOT, LEADER_EPOCH);
    // Small enough that the segments' indexes evict each other: lookups also run on entries fetched again.
    private static final long INDEX_CACHE_BYTES = 16 * 1024;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static Path kafkaTier;
    private static List<LogEntry> produced;
    private static List<KafkaSegment> segments;
    private static PluginRegistry plugins;
    private static RemoteStorageManager local;

    @BeforeAll
    static void kafkaWritesATier() throws Exception {
        // Before the broker starts, so that a missing distribution fails at once.
        plugins = DistributionPlugins.discover();
        kafkaTier = work.resolve("kafka-tier");
        produced = KafkaTierWriter.write(work.resolve("kafka"), kafkaTier, TOPIC);
        segments = new ArrayList<>();
        for (TierSegment files : TierSegment.scan(kafkaTier)) {
            segments.add(KafkaSegment.read(files, KafkaTierWriter.BROKER_ID));
        }
        // The rsm.config. settings the broker gave LocalTieredStorage.
        local = plugins.createRemoteStorageManager(
                "local", Map.of("dir", kafkaTier.toString(), "delete.on.close", "false"));
    }

    @AfterAll
    static void closePlugin() throws IOException {
        if (local != null) {
            local.close();
        }
    }

    @Test
    void kafkaTieredSeveralSegmentsOfThePartitionWithContiguousOffsetsFromZero() throws IOException {
        assertTrue(segments.size() >= 3, "Kafka tiered only " + segments.size() + " segments: " + segments);
        String topicId = Files.readAllLines(work.resolve("kafka/data/" + TOPIC + "-0/partition.metadata")).stream()
                .filter(l -> l.startsWith("topic_id:"))
                .map(l -> l.substring("topic_id:".length()).trim())
                .findFirst()
                .orElseThrow();
        long next = 0;
        for (KafkaSegment segment : segments) {
            assertEquals(
                    new TopicPartition(TOPIC, 0), segment.files().partition().topicPartition(), segment::toString);
            assertEquals(topicId, segment.files().partition().topicId().toString(), segment::toString);
            assertEquals(next, segment.files().startOffset(), () -> segment + " does not follow the previous one");
            assertTrue(segment.bytes().length <= 1024 * 1024, () -> segment + " is larger than segment.bytes");
            for (LoggedBatch batch : segment.batches()) {
                assertEquals(
                        next, batch.baseOffset(), () -> segment + ": a gap before the batch at " + batch.position());
                for (LoggedRecord record : batch.records()) {
                    assertEquals(
                            next++, record.offset(), () -> segment + ": a gap in the batch at " + batch.position());
                }
                assertEquals(
                        next - 1,
                        batch.lastOffset(),
                        () -> segment + ": the batch at " + batch.position() + " ends elsewhere");
            }
        }
    }

    @Test
    void theLocalPluginFetchesEverySegmentWholeAndInRangesByteForByte() throws Exception {
        Random random = new Random(405);
        for (KafkaSegment segment : segments) {
            byte[] bytes = segment.bytes();
            RemoteLogSegmentMetadata metadata = segment.metadata();
            assertArrayEquals(bytes, read(local.fetchLogSegment(metadata, 0)), segment::toString);
            for (LoggedBatch batch : segment.batches()) {
                // One batch, as a fetch reads it; and from the batch to the end.
                assertArrayEquals(
                        Arrays.copyOfRange(bytes, batch.position(), batch.end()),
                        read(local.fetchLogSegment(metadata, batch.position(), batch.end() - 1)),
                        () -> segment + ", the batch at " + batch.position());
                assertArrayEquals(
                        Arrays.copyOfRange(bytes, batch.position(), bytes.length),
                        read(local.fetchLogSegment(metadata, batch.position())),
                        () -> segment + ", from the batch at " + batch.position());
            }
            for (int i = 0; i < 50; i++) {
                int start = random.nextInt(bytes.length);
                int end = start + random.nextInt(bytes.length - start);
                assertArrayEquals(
                        Arrays.copyOfRange(bytes, start, end + 1),
                        read(local.fetchLogSegment(metadata, start, end)),
                        () -> segment + ", bytes " + start + " to " + end);
            }
            assertArrayEquals(
                    new byte[] {bytes[bytes.length - 1]},
                    read(local.fetchLogSegment(metadata, bytes.length - 1, bytes.length - 1)),
                    segment::toString);
        }
    }

    @Test
    void theSegmentsTheLocalPluginFetchesHoldExactlyTheProducedRecordsInOrder() throws Exception {
        List<LogEntry> tiered = new ArrayList<>();
        for (KafkaSegment segment : segments) {
            List<LoggedBatch> batches =
                    LoggedBatch.decode(read(local.fetchLogSegment(segment.metadata(), 0)), segment.toString());
            for (LoggedBatch batch : batches) {
                for (LoggedRecord record : batch.records()) {
                    assertEquals(tiered.size(), record.offset(), () -> segment + ": offsets are not contiguous from 0");
                    tiered.add(record.entry());
                }
            }
        }
        // Everything up to the active segment, which stays local: past both transactions, into the last phase.
        assertTrue(
                tiered.size() > produced.indexOf(new Marker(ControlRecordType.COMMIT))
                        && tiered.size() <= produced.size(),
                () -> "the tier holds " + tiered.size() + " of the " + produced.size() + " entries produced");
        for (int offset = 0; offset < tiered.size(); offset++) {
            assertEquals(produced.get(offset), tiered.get(offset), "the entry at offset " + offset);
        }
    }

    @Test
    void theLocalPluginFetchesEveryIndexKafkaWroteByteForByte() throws Exception {
        for (KafkaSegment segment : segments) {
            for (IndexType type : ALWAYS_WRITTEN) {
                assertArrayEquals(
                        Files.readAllBytes(segment.files().file(type)),
                        read(local.fetchIndex(segment.metadata(), type)),
                        () -> segment + ", " + type);
            }
        }
    }

    @Test
    void theLocalPluginFindsATransactionIndexExactlyWhereKafkaWroteOne() throws Exception {
        LoggedBatch abort = controlBatch(ControlRecordType.ABORT);
        long firstAborted = firstTransactionalOffset();
        for (KafkaSegment segment : segments) {
            RemoteLogSegmentMetadata metadata = segment.metadata();
            boolean holdsAbort = segment.batchOf(abort.baseOffset()).isPresent();
            assertEquals(
                    holdsAbort,
                    segment.files().txnIndex().isPresent(),
                    () -> segment + (holdsAbort ? " holds the abort marker but has no" : " has a")
                            + " transaction index");
            if (holdsAbort) {
                byte[] kafkaIndex =
                        Files.readAllBytes(segment.files().txnIndex().orElseThrow());
                assertArrayEquals(kafkaIndex, read(local.fetchIndex(metadata, TRANSACTION)), segment::toString);
                List<AbortedTxn> aborted = new TransactionIndex(
                                ByteBuffer.wrap(kafkaIndex),
                                segment.files().startOffset(),
                                segment.files().txnIndex().orElseThrow().toString())
                        .allAbortedTxns();
                assertEquals(1, aborted.size(), () -> segment + ": " + aborted);
                assertEquals(abort.producerId(), aborted.getFirst().producerId());
                assertEquals(firstAborted, aborted.getFirst().firstOffset());
                assertEquals(abort.baseOffset(), aborted.getFirst().lastOffset());
            } else {
                assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> local.fetchIndex(metadata, TRANSACTION).close(),
                        segment::toString);
            }
        }
    }

    @Test
    void kafkasOffsetIndexesPointAtTheStartsOfTheBatchesHoldingTheirOffsets() throws IOException {
        for (KafkaSegment segment : segments) {
            OffsetIndex index = offsetIndex(segment);
            assertTrue(index.entries() > 0, segment::toString);
            for (int n = 0; n < index.entries(); n++) {
                OffsetPosition entry = index.entry(n);
                LoggedBatch batch = segment.batchAt(entry.position())
                        .orElseThrow(
                                () -> new AssertionError(segment + ": " + entry + " is not at the start of a batch"));
                assertTrue(
                        batch.baseOffset() <= entry.offset() && entry.offset() <= batch.lastOffset(),
                        () -> segment + ": " + entry + " points at the batch of offsets " + batch.baseOffset() + " to "
                                + batch.lastOffset());
            }
        }
    }

    @Test
    void kafkasTimeIndexesHoldTheBatchesRunningMaximumTimestamps() throws IOException {
        for (KafkaSegment segment : segments) {
            TimeIndex index = timeIndex(segment);
            assertTrue(index.entries() > 0, segment::toString);
            for (int n = 0; n < index.entries(); n++) {
                TimestampOffset entry = index.entry(n);
                LoggedBatch batch = segment.batchOf(entry.offset())
                        .orElseThrow(() ->
                                new AssertionError(segment + ": " + entry + " names an offset outside the segment"));
                assertEquals(
                        batch.maxTimestamp(),
                        entry.timestamp(),
                        () -> segment + ": " + entry + " is not its batch's max timestamp");
                long before = segment.batches().stream()
                        .filter(b -> b.position() < batch.position())
                        .mapToLong(LoggedBatch::maxTimestamp)
                        .max()
                        .orElse(TimeIndex.NO_TIMESTAMP);
                assertTrue(
                        before < entry.timestamp(),
                        () -> segment + ": " + entry + " is not where the maximum was first reached");
            }
            // Kafka adds the segment's maximum when it rolls the segment.
            assertEquals(segment.metadata().maxTimestampMs(), index.lastEntry().timestamp(), segment::toString);
        }
    }

    @Test
    void remoteIndexCacheOverTheLocalPluginFindsWhatALinearScanFinds() throws Exception {
        try (RemoteIndexCache cache =
                new RemoteIndexCache(INDEX_CACHE_BYTES, local, Files.createDirectories(work.resolve("cache")))) {
            for (KafkaSegment segment : segments) {
                RemoteLogSegmentMetadata metadata = segment.metadata();
                OffsetIndex kafkaIndex = offsetIndex(segment);
                for (long offset = metadata.startOffset(); offset <= metadata.endOffset(); offset++) {
                    long target = offset;
                    int position = cache.lookupOffset(metadata, target);
                    assertEquals(kafkaIndex.lookup(target).position(), position, () -> segment + ", offset " + target);
                    LoggedBatch holder = segment.batchOf(target).orElseThrow();
                    assertTrue(
                            segment.batchAt(position).isPresent() && position <= holder.position(),
                            () -> segment + ": a scan from " + position + " misses offset " + target + " at "
                                    + holder.position());
                }
            }
            for (KafkaSegment segment : segments) {
                RemoteLogSegmentMetadata metadata = segment.metadata();
                TreeSet<Long> targets = new TreeSet<>();
                segment.batches()
                        .forEach(b -> b.records().forEach(r -> {
                            targets.add(r.timestamp());
                            targets.add(r.timestamp() + 1);
                        }));
                targets.add(targets.first() - 1);
                for (long timestamp : targets) {
                    int from = cache.lookupTimestamp(metadata, timestamp, metadata.startOffset())
                            .position();
                    assertEquals(
                            firstAtOrAfter(segment, 0, timestamp),
                            firstAtOrAfter(segment, from, timestamp),
                            () -> segment + ", timestamp " + timestamp + " scanned from " + from);
                }
                List<AbortedTxn> expected = segment.files().txnIndex().isEmpty()
                        ? List.of()
                        : new TransactionIndex(
                                        ByteBuffer.wrap(Files.readAllBytes(
                                                segment.files().txnIndex().orElseThrow())),
                                        metadata.startOffset(),
                                        segment.toString())
                                .allAbortedTxns();
                assertEquals(
                        expected,
                        cache.collectAbortedTxns(metadata, metadata.startOffset(), metadata.endOffset() + 1)
                                .abortedTransactions(),
                        segment::toString);
            }
        }
    }

    @Test
    void kafkasLocalTieredStorageReadsByteForByteATierTheLocalPluginWrote() throws Exception {
        Path krabkaTier = Files.createDirectories(work.resolve("krabka-tier"));
        try (RemoteStorageManager writer =
                plugins.createRemoteStorageManager("local", Map.of("dir", krabkaTier.toString()))) {
            for (KafkaSegment segment : segments) {
                TierSegment files = segment.files();
                RemoteLogSegmentMetadata m = segment.metadata();
                RemoteLogSegmentMetadata started = new RemoteLogSegmentMetadata(
                        m.remoteLogSegmentId(),
                        m.startOffset(),
                        m.endOffset(),
                        m.maxTimestampMs(),
                        m.brokerId(),
                        m.eventTimestampMs(),
                        m.segmentSizeInBytes(),
                        m.segmentLeaderEpochs(),
                        m.txnIdxEmpty());
                writer.copyLogSegmentData(
                        started,
                        new LogSegmentData(
                                files.log(),
                                files.file(OFFSET),
                                files.file(TIMESTAMP),
                                files.txnIndex(),
                                files.file(PRODUCER_SNAPSHOT),
                                ByteBuffer.wrap(Files.readAllBytes(files.file(LEADER_EPOCH)))));
            }
        }
        assertEquals(namesIn(kafkaTier), namesIn(krabkaTier), "the plugin names and places files as Kafka does");

        Path read = KafkaTierReading.read(krabkaTier, segments, work.resolve("kafka-reads"));
        for (KafkaSegment segment : segments) {
            String id = segment.files().segmentId().toString();
            assertArrayEquals(segment.bytes(), Files.readAllBytes(read.resolve(id + ".log")), segment::toString);
            for (IndexType type : ALWAYS_WRITTEN) {
                assertArrayEquals(
                        Files.readAllBytes(segment.files().file(type)),
                        Files.readAllBytes(read.resolve(id + "." + type)),
                        () -> segment + ", " + type);
            }
            Path txn = read.resolve(id + "." + TRANSACTION);
            if (segment.files().txnIndex().isPresent()) {
                assertArrayEquals(
                        Files.readAllBytes(segment.files().txnIndex().orElseThrow()),
                        Files.readAllBytes(txn),
                        segment::toString);
            } else {
                assertFalse(Files.exists(txn), segment::toString);
                assertTrue(
                        Files.exists(read.resolve(id + "." + TRANSACTION + ".not-found")),
                        () -> segment + ": Kafka did not report the missing transaction index");
            }
        }
    }

    /** The offset of the first record at or after {@code timestamp} scanning from {@code position}, as Kafka scans. */
    private static OptionalLong firstAtOrAfter(KafkaSegment segment, int position, long timestamp) {
        return segment.batches().stream()
                .filter(b -> b.position() >= position && b.maxTimestamp() >= timestamp)
                .flatMap(b -> b.records().stream())
                .filter(r -> r.timestamp() >= timestamp)
                .mapToLong(LoggedRecord::offset)
                .findFirst();
    }

    /** The offset of the first record produced in a transaction: the aborted transaction's first offset. */
    private static long firstTransactionalOffset() {
        for (int offset = 0; offset < produced.size(); offset++) {
            if (produced.get(offset) instanceof LogEntry.Data data && data.transactional()) {
                return offset;
            }
        }
        throw new AssertionError("no transactional record was produced");
    }

    private static LoggedBatch controlBatch(ControlRecordType type) {
        return segments.stream()
                .flatMap(s -> s.batches().stream())
                .filter(b -> b.records().getFirst().entry().equals(new Marker(type)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " marker in the tier"));
    }

    private static OffsetIndex offsetIndex(KafkaSegment segment) throws IOException {
        Path file = segment.files().file(OFFSET);
        return new OffsetIndex(
                ByteBuffer.wrap(Files.readAllBytes(file)), segment.files().startOffset(), file.toString());
    }

    private static TimeIndex timeIndex(KafkaSegment segment) throws IOException {
        Path file = segment.files().file(TIMESTAMP);
        return new TimeIndex(
                ByteBuffer.wrap(Files.readAllBytes(file)), segment.files().startOffset(), file.toString());
    }

    /** The files under a tier's {@code kafka-tiered-storage}, relative to it. */
    private static TreeSet<String> namesIn(Path tier) throws IOException {
        Path root = tier.resolve(TierSegment.ROOT_DIR_NAME);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> root.relativize(f).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static byte[] read(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
