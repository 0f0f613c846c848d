package io.krabka.kernel.tiered;

import io.krabka.kernel.metrics.MetricName;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.metrics.Timer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of reads from the remote tier, per topic and in total: Kafka's {@code BrokerTopicMetrics}
 * RemoteFetchBytesPerSec, RemoteFetchRequestsPerSec and RemoteFetchErrorsPerSec, and the latency of remote reads,
 * published in the broker's metrics. The index cache's hits and misses are its own
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
    public record Counts(
            long bytes, long requests, long errors, long latencyCount, long latencySumMs, long latencyMaxMs) {}

    /** The latency of remote reads in milliseconds and their rate: Kafka's remote log reader timer. */
    public static final MetricName FETCH_TIME =
            MetricName.of("kafka.log.remote", "RemoteLogManager", "RemoteLogReaderFetchRateAndTimeMs");

    private static final String BYTES = "RemoteFetchBytesPerSec";
    private static final String REQUESTS = "RemoteFetchRequestsPerSec";
    private static final String ERRORS = "RemoteFetchErrorsPerSec";

    private final Counters total = new Counters();
    private final Map<String, Counters> topics = new ConcurrentHashMap<>();
    private final MetricsRegistry registry;
    private final Timer latency;

    /** Counters published in {@code registry} under Kafka's names, for all topics and (once read) each. */
    public RemoteFetchMetrics(MetricsRegistry registry) {
        this.registry = registry;
        this.latency = registry.timer(FETCH_TIME);
        publish(total, Optional.empty());
    }

    private void publish(Counters counters, Optional<String> topic) {
        // The event types of Kafka's meters: an error is a request that failed.
        Map<String, LongAdder> meters =
                Map.of(BYTES, counters.bytes, REQUESTS, counters.requests, ERRORS, counters.errors);
        meters.forEach((name, adder) -> {
            MetricName metric = MetricName.brokerTopicMetric(name);
            registry.meter(
                    topic.map(metric::forTopic).orElse(metric), name.equals(BYTES) ? "bytes" : "requests", adder::sum);
        });
    }

    /** Forgets a deleted topic: its counters leave the registry. */
    public void removeTopic(String topic) {
        if (topics.remove(topic) != null) {
            for (String name : List.of(BYTES, REQUESTS, ERRORS)) {
                registry.remove(MetricName.brokerTopicMetric(name).forTopic(topic));
            }
        }
    }

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

    void recordLatency(String topic, long nanos) {
        latency.update(nanos, TimeUnit.NANOSECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
        total.recordLatency(millis);
        counters(topic).recordLatency(millis);
    }

    private Counters counters(String topic) {
        return topics.computeIfAbsent(topic, name -> {
            Counters counters = new Counters();
            publish(counters, Optional.of(name));
            return counters;
        });
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
            return new Counts(
                    bytes.sum(), requests.sum(), errors.sum(), latencyCount.sum(), latencySum.sum(), latencyMax.get());
        }
    }
}
