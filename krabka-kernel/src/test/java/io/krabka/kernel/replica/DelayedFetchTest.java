package io.krabka.kernel.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogOffsetMetadata;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** Kafka's completion cases of a waiting fetch, decided from offsets and positions without reading. */
class DelayedFetchTest {

    private static final FetchPartition PARTITION = new FetchPartition(
            new TopicIdPartition(Uuid.randomUuid(), new TopicPartition("orders", 0)), 10, 1000, Optional.empty());
    private static final FetchParams PARAMS = new FetchParams(-1, 60_000, 100, 1 << 20, FetchIsolation.HIGH_WATERMARK);

    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicReference<LogOffsetMetadata> end = new AtomicReference<>(new LogOffsetMetadata(10, 0, 500));

    private DelayedFetch waitingAt(LogOffsetMetadata start) {
        LogReadResult first = new LogReadResult(
                PARTITION, Errors.NONE, BufferRecords.EMPTY, 10, 10, 0, Optional.empty(), Optional.of(start));
        return new DelayedFetch(
                PARAMS,
                List.of(first),
                partitions -> {
                    reads.incrementAndGet();
                    return List.of(first);
                },
                (partition, isolation) -> {
                    LogOffsetMetadata current = end.get();
                    if (current == null) {
                        throw new UnknownTopicOrPartitionException("deleted");
                    }
                    return current;
                });
    }

    @Test
    void bytesBelowMinBytesAreCountedWithoutReading() {
        DelayedFetch fetch = waitingAt(new LogOffsetMetadata(10, 0, 500));
        end.set(new LogOffsetMetadata(11, 0, 560));
        assertFalse(fetch.tryComplete());
        assertEquals(0, reads.get(), "no read while the positions show too few bytes");
        end.set(new LogOffsetMetadata(12, 0, 600));
        assertTrue(fetch.tryComplete());
        assertEquals(1, reads.get(), "one read, to answer");
        assertTrue(fetch.response().isDone());
        assertFalse(fetch.tryComplete(), "completes once");
    }

    @Test
    void aPartitionLimitCapsTheBytesCounted() {
        FetchParams needMore = new FetchParams(-1, 60_000, 2000, 1 << 20, FetchIsolation.HIGH_WATERMARK);
        LogReadResult first = new LogReadResult(
                PARTITION,
                Errors.NONE,
                BufferRecords.EMPTY,
                10,
                10,
                0,
                Optional.empty(),
                Optional.of(new LogOffsetMetadata(10, 0, 0)));
        DelayedFetch fetch = new DelayedFetch(
                needMore,
                List.of(first),
                partitions -> List.of(first),
                (partition, isolation) -> new LogOffsetMetadata(50, 0, 5000));
        assertFalse(fetch.tryComplete(), "5000 bytes readable, but at most the partition's 1000 count");
    }

    @Test
    void aNewSegmentATruncationOrAGonePartitionAnswersAtOnce() {
        DelayedFetch rolled = waitingAt(new LogOffsetMetadata(10, 0, 500));
        end.set(new LogOffsetMetadata(11, 11, 0));
        assertTrue(rolled.tryComplete());

        DelayedFetch truncated = waitingAt(new LogOffsetMetadata(10, 0, 500));
        end.set(new LogOffsetMetadata(5, 0, 200));
        assertTrue(truncated.tryComplete());

        DelayedFetch deleted = waitingAt(new LogOffsetMetadata(10, 0, 500));
        end.set(null);
        assertTrue(deleted.tryComplete());
    }

    @Test
    void anAppendBetweenTheFirstReadAndTheWatchIsNotMissed() throws InterruptedException {
        KafkaScheduler scheduler = new KafkaScheduler(1, "delayed-fetch-test-");
        try {
            FetchPurgatory purgatory = new FetchPurgatory(scheduler);
            DelayedFetch fetch = waitingAt(new LogOffsetMetadata(10, 0, 500));
            end.set(new LogOffsetMetadata(12, 0, 700)); // appended after the first read, before the watch
            purgatory.tryCompleteElseWatch(fetch);
            assertTrue(fetch.response().isDone());
            assertEquals(0, purgatory.waiting());
        } finally {
            scheduler.shutdown();
        }
    }

    @Test
    void unknownPositionsAreReadToDecide() {
        DelayedFetch fetch = waitingAt(new LogOffsetMetadata(10));
        end.set(new LogOffsetMetadata(12, 0, 600));
        assertFalse(fetch.tryComplete(), "the read found nothing");
        assertEquals(1, reads.get());
        assertTrue(fetch.expire(), "the maximum wait answers with what is there");
        assertEquals(2, reads.get());
    }
}
