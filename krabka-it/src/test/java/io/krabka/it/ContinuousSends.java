package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.spi.common.TopicPartition;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;

/**
 * Records sent without pause, round-robin to partitions, with at most {@value #MAX_IN_FLIGHT} unacknowledged at
 * a time, until closed: the load a broker is killed under. Only the acknowledged records are known to be in the
 * log; what was in flight may or may not be.
 */
final class ContinuousSends implements AutoCloseable {
    private static final int MAX_IN_FLIGHT = 1000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final Producer<byte[], byte[]> producer;
    private final List<TopicPartition> partitions;
    private final RecordFactory records;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final Queue<Acknowledged> acknowledged = new ConcurrentLinkedQueue<>();
    private final Thread sender;
    private volatile boolean closed;
    private volatile Exception senderFailure;

    /**
     * A record Kafka acknowledged.
     *
     * @param partition where
     * @param offset    at which offset
     * @param timestamp with which timestamp
     * @param record    what was sent
     */
    record Acknowledged(TopicPartition partition, long offset, long timestamp, Data record) {}

    private ContinuousSends(Producer<byte[], byte[]> producer, List<TopicPartition> partitions, RecordFactory records) {
        this.producer = producer;
        this.partitions = List.copyOf(partitions);
        this.records = records;
        this.sender = Thread.ofPlatform().name("continuous-sends").daemon().unstarted(this::send);
    }

    /** Starts sending through {@code producer}, which this then owns and closes. */
    static ContinuousSends start(
            Producer<byte[], byte[]> producer, List<TopicPartition> partitions, RecordFactory records) {
        ContinuousSends sends = new ContinuousSends(producer, partitions, records);
        sends.sender.start();
        return sends;
    }

    /**
     * Waits until Kafka has acknowledged at least {@code count} records.
     *
     * @throws IllegalStateException if it has not within {@code timeout}, or sending failed
     */
    void awaitAcknowledged(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (acknowledged.size() < count) {
            if (senderFailure != null) {
                throw new IllegalStateException(
                        "sending failed after " + acknowledged.size() + " acknowledgements", senderFailure);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka acknowledged only " + acknowledged.size() + " of " + count
                        + " records within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    /** The records Kafka acknowledged, by partition and offset; complete once closed. */
    List<Acknowledged> acknowledged() {
        return acknowledged.stream()
                .sorted(Comparator.comparing((Acknowledged a) -> a.partition().toString())
                        .thenComparingLong(Acknowledged::offset))
                .toList();
    }

    /**
     * Stops sending and closes the producer, abandoning what is still in flight after a short wait (at once if
     * interrupted; the interrupt is kept).
     */
    @Override
    public void close() {
        closed = true;
        try {
            sender.join();
            producer.close(CLOSE_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            producer.close(Duration.ZERO);
        }
    }

    private void send() {
        try {
            for (int n = 0; !closed; n++) {
                if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                TopicPartition partition = partitions.get(n % partitions.size());
                Data record = records.next(false);
                producer.send(RecordFactory.toSend(partition.topic(), partition.partition(), record), (metadata, e) -> {
                    inFlight.release();
                    if (e == null) {
                        acknowledged.add(new Acknowledged(partition, metadata.offset(), metadata.timestamp(), record));
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            senderFailure = e;
        }
    }
}
