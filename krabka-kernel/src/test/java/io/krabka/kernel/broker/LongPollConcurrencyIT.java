package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.fetch;
import static io.krabka.kernel.broker.DataRequests.fetchPartition;
import static io.krabka.kernel.broker.DataRequests.fetchTopic;
import static io.krabka.kernel.broker.DataRequests.produce;
import static io.krabka.kernel.broker.DataRequests.records;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.network.KafkaWire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Consumers long-polling with a maximum wait far beyond the test's socket timeout while producers append
 * concurrently: every consumer is woken to the end and no fetch is left waiting. (The race of an append between a
 * fetch's first read and its watch is pinned down deterministically in DelayedFetchTest.)
 */
class LongPollConcurrencyIT {

    private static final int PRODUCERS = 3;
    private static final int BATCHES_PER_PRODUCER = 300;
    private static final int CONSUMERS = 4;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 1, Map.of());

    @Test
    void everyLongPollingConsumerSeesEveryAppend() throws Exception {
        int total = PRODUCERS * BATCHES_PER_PRODUCER;
        ExecutorService threads = Executors.newFixedThreadPool(PRODUCERS + CONSUMERS);
        try {
            List<Future<Long>> consumers = new ArrayList<>();
            for (int c = 0; c < CONSUMERS; c++) {
                consumers.add(threads.submit(() -> consume(total)));
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                producers.add(threads.submit(() -> {
                    try (KafkaWire wire = plane.connect()) {
                        for (int b = 0; b < BATCHES_PER_PRODUCER; b++) {
                            assertEquals(
                                    Errors.NONE.code(),
                                    call(wire, (short) 12, produce((short) 1, "orders", 0, records("v")))
                                            .data()
                                            .responses()
                                            .iterator()
                                            .next()
                                            .partitionResponses()
                                            .get(0)
                                            .errorCode());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> producer : producers) {
                producer.get();
            }
            for (Future<Long> consumer : consumers) {
                assertEquals(total, consumer.get());
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(0, plane.replicaManager.waitingFetches());
    }

    /** Long-polls from offset 0 until {@code total} records were read; returns the offset reached. */
    private long consume(int total) throws Exception {
        long offset = 0;
        try (KafkaWire wire = plane.connect()) {
            while (offset < total) {
                FetchResponse response = call(
                        wire,
                        (short) 12,
                        fetch(600_000, 1, fetchTopic("orders", Uuid.ZERO_UUID, fetchPartition(0, offset, 1 << 20))));
                FetchResponseData.PartitionData data =
                        response.data().responses().get(0).partitions().get(0);
                assertEquals(Errors.NONE.code(), data.errorCode());
                for (var batch : FetchResponse.recordsOrFail(data).batches()) {
                    if (batch.lastOffset() >= offset) {
                        offset = batch.lastOffset() + 1;
                    }
                }
            }
        }
        return offset;
    }
}
