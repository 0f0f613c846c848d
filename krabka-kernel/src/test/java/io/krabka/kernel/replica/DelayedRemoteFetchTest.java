package io.krabka.kernel.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogOffsetMetadata;
import io.krabka.kernel.log.TestTime;
import io.krabka.kernel.scheduler.MockScheduler;
import io.krabka.kernel.tiered.RemoteStorageFetchInfo;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteStorageException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** A fetch waiting for several remote reads: answered when all end, or at its expiry with the ones done by then. */
class DelayedRemoteFetchTest {

    private static final TopicIdPartition ORDERS = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
    private static final TopicIdPartition INVOICES = new TopicIdPartition(Uuid.randomUuid(), "invoices", 0);
    private static final TopicIdPartition PLAIN = new TopicIdPartition(Uuid.randomUuid(), "plain", 0);

    private final CompletableFuture<FetchDataInfo> orders = new CompletableFuture<>();
    private final CompletableFuture<FetchDataInfo> invoices = new CompletableFuture<>();
    private final List<DelayedRemoteFetch> completed = new CopyOnWriteArrayList<>();
    private final TestTime time = new TestTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final DelayedRemoteFetch fetch = new DelayedRemoteFetch(
            List.of(placeholder(ORDERS), local(PLAIN), placeholder(INVOICES)),
            List.of(remoteRead(0, ORDERS), remoteRead(2, INVOICES)),
            List.of(orders, invoices),
            completed::add);

    @Test
    void itIsAnsweredWhenEveryRemoteReadHasEnded() throws Exception {
        fetch.start(scheduler, 500);
        orders.complete(data(10));
        assertFalse(fetch.response().isDone(), "one read is still running");
        invoices.completeExceptionally(new RemoteStorageException("down"));

        List<LogReadResult> results = fetch.response().get();
        assertEquals(10, results.get(0).records().sizeInBytes());
        assertEquals(Errors.NONE, results.get(1).error());
        assertEquals(3, results.get(1).records().sizeInBytes(), "the local partition as it was read");
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, results.get(2).error(), "a failed read fails its partition only");
        assertEquals(List.of(fetch), completed);
    }

    @Test
    void atItsExpiryTheReadsDoneAreAnsweredAndTheOthersCancelled() throws Exception {
        fetch.start(scheduler, 500);
        orders.complete(data(10));
        scheduler.advance(500);

        List<LogReadResult> results = fetch.response().get();
        assertEquals(10, results.get(0).records().sizeInBytes());
        assertEquals(Errors.NONE, results.get(2).error());
        assertEquals(0, results.get(2).records().sizeInBytes(), "no records for the read not done");
        assertTrue(invoices.isCancelled(), "a read not started is skipped");
        assertEquals(List.of(fetch), completed, "answered once");
    }

    private static LogReadResult placeholder(TopicIdPartition partition) {
        return new LogReadResult(
                new FetchPartition(partition, 0, 100, Optional.empty()),
                Errors.NONE,
                BufferRecords.EMPTY,
                20,
                20,
                0,
                Optional.empty(),
                Optional.of(new LogOffsetMetadata(0)));
    }

    private static LogReadResult local(TopicIdPartition partition) {
        return new LogReadResult(
                new FetchPartition(partition, 0, 100, Optional.empty()),
                Errors.NONE,
                new BufferRecords(ByteBuffer.allocate(3)),
                20,
                20,
                0,
                Optional.empty(),
                Optional.of(new LogOffsetMetadata(0)));
    }

    private static LogReader.RemoteRead remoteRead(int index, TopicIdPartition partition) {
        return new LogReader.RemoteRead(
                index, new RemoteStorageFetchInfo(partition, 0, 100, index == 0, FetchIsolation.HIGH_WATERMARK), null);
    }

    private static FetchDataInfo data(int bytes) {
        return new FetchDataInfo(new LogOffsetMetadata(0), new BufferRecords(ByteBuffer.allocate(bytes)));
    }
}
