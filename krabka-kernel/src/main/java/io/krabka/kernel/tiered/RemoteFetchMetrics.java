package io.krabka.kernel.tiered;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of reads from the remote tier, per topic and in total: Kafka's {@code BrokerTopicMetrics}
 * RemoteFetchBytesPerSec, RemoteFetchRequestsPerSec and RemoteFetchErrorsPerSec (as cumulative counts, the rate
 * being the exporter's), and the latency of remote reads. The index cache's hits and misses are its own
 * {@link RemoteIndexCache#stats()}. Thread-safe.
 */
public final class RemoteFetchMetrics {

    /**
     * One topic's counts, or the total.
     *
     * @param bytes         bytes returned by remote reads
     * @param requests      remote reads started
     * @param errors        remote reads failed
     * @param latencyCount  remote reads finished, failed or not
     * @param latencySumMs  their total time
     * @param latencyMaxMs  the longest
     */
    public record Counts(long bytes, long requests, long errors, long latencyCount, long latencySumMs,
                         long latencyMaxMs) {
    }

    private final Counters total = new Counters();
    private final Map<String, Counters> topics = new ConcurrentHashMap<>();

    /** The counts of every topic together. */
    public Counts total() {
        return total.counts();
    }

    /** One topic's counts; zeros for a topic never read remotely. */
    public Counts topic(String topic) {
        Counters counters = topics.get(topic);
        return counters == null ? new Counts(0, 0, 0, 0, 0, 0) : counters.counts();
    }

    /** The topics read remotely so far. */
    public Iterable<String> topics() {
        return topics.keySet();
    }

    void recordRequest(String topic) {
        total.requests.increment();
        counters(topic).requests.increment();
    }

    void recordBytes(String topic, long bytes) {
        total.bytes.add(bytes);
        counters(topic).bytes.add(bytes);
    }

    void recordError(String topic) {
        total.errors.increment();
        counters(topic).errors.increment();
    }

    void recordLatency(String topic, long millis) {
        total.recordLatency(millis);
        counters(topic).recordLatency(millis);
    }

    private Counters counters(String topic) {
        return topics.computeIfAbsent(topic, name -> new Counters());
    }

    private static final class Counters {
        final LongAdder bytes = new LongAdder();
        final LongAdder requests = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LongAdder latencyCount = new LongAdder();
        final LongAdder latencySum = new LongAdder();
        final LongAccumulator latencyMax = new LongAccumulator(Math::max, 0);

        void recordLatency(long millis) {
            latencyCount.increment();
            latencySum.add(millis);
            latencyMax.accumulate(millis);
        }

        Counts counts() {
            return new Counts(bytes.sum(), requests.sum(), errors.sum(), latencyCount.sum(), latencySum.sum(),
                    latencyMax.get());
        }
    }
}
