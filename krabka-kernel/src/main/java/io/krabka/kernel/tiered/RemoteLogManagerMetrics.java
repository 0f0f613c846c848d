package io.krabka.kernel.tiered;

import io.krabka.kernel.metrics.MetricName;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.spi.common.TopicIdPartition;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The remote log manager's metrics, per topic and for all topics, with Kafka's names
 * ({@code kafka.server:type=BrokerTopicMetrics,name=<name>[,topic=<topic>]}): counters that only grow (the
 * integrator turns them into Kafka's {@code ...PerSec} meters) and gauges kept per partition, summed per topic.
 *
 * <p>Thread-safe.
 */
public final class RemoteLogManagerMetrics {

    /** The counters, with Kafka's meter names. */
    public enum Counter {
        REMOTE_COPY_BYTES("RemoteCopyBytesPerSec", "bytes"),
        REMOTE_COPY_REQUESTS("RemoteCopyRequestsPerSec", "requests"),
        REMOTE_COPY_ERRORS("RemoteCopyErrorsPerSec", "requests"),
        REMOTE_DELETE_REQUESTS("RemoteDeleteRequestsPerSec", "requests"),
        REMOTE_DELETE_ERRORS("RemoteDeleteErrorsPerSec", "requests"),
        /** Segments a write-once archive kept that retention or a topic's deletion would have deleted (Krabka's). */
        REMOTE_ARCHIVE_DELETES_REFUSED("RemoteArchiveDeletesRefusedPerSec", "segments"),
        /** Copies to a write-once archive that failed or were cut short, their objects kept (Krabka's). */
        REMOTE_ARCHIVE_ABANDONED_COPIES("RemoteArchiveAbandonedCopiesPerSec", "segments");

        private final String metricName;
        private final String eventType;

        Counter(String metricName, String eventType) {
            this.metricName = metricName;
            this.eventType = eventType;
        }

        /** Kafka's name of the meter. */
        public String metricName() {
            return metricName;
        }

        /** What the meter counts, as Kafka's meter says on JMX ({@code EventType}). */
        public String eventType() {
            return eventType;
        }
    }

    /** The gauges, with Kafka's names. */
    public enum Gauge {
        /** The bytes of rolled local segments not yet copied. */
        REMOTE_COPY_LAG_BYTES("RemoteCopyLagBytes"),
        /** The rolled local segments not yet copied. */
        REMOTE_COPY_LAG_SEGMENTS("RemoteCopyLagSegments"),
        /** The bytes of remote segments retention is deleting. */
        REMOTE_DELETE_LAG_BYTES("RemoteDeleteLagBytes"),
        /** The remote segments retention is deleting. */
        REMOTE_DELETE_LAG_SEGMENTS("RemoteDeleteLagSegments"),
        /** The bytes in the remote tier. */
        REMOTE_LOG_SIZE_BYTES("RemoteLogSizeBytes"),
        /** The segments (metadata entries) in the remote tier. */
        REMOTE_LOG_METADATA_COUNT("RemoteLogMetadataCount");

        private final String metricName;

        Gauge(String metricName) {
            this.metricName = metricName;
        }

        /** Kafka's name of the gauge. */
        public String metricName() {
            return metricName;
        }
    }

    private final Map<String, EnumMap<Counter, LongAdder>> topicCounters = new ConcurrentHashMap<>();
    private final EnumMap<Counter, LongAdder> totalCounters = newCounters();
    private final Map<TopicIdPartition, AtomicLongArray> partitionGauges = new ConcurrentHashMap<>();
    private final MetricsRegistry registry;

    /** Counters published in {@code registry} under Kafka's names, for all topics and (once counted) each. */
    public RemoteLogManagerMetrics(MetricsRegistry registry) {
        this.registry = registry;
        for (Counter counter : Counter.values()) {
            registry.meter(
                    MetricName.brokerTopicMetric(counter.metricName()),
                    counter.eventType(),
                    totalCounters.get(counter)::sum);
        }
        for (Gauge gauge : Gauge.values()) {
            registry.gauge(MetricName.brokerTopicMetric(gauge.metricName()), () -> totalValue(gauge));
        }
    }

    /** Adds {@code amount} to a counter of {@code topic} and of all topics. */
    void increment(Counter counter, String topic, long amount) {
        topicCounters
                .computeIfAbsent(topic, this::publishedCounters)
                .get(counter)
                .add(amount);
        totalCounters.get(counter).add(amount);
    }

    private EnumMap<Counter, LongAdder> publishedCounters(String topic) {
        EnumMap<Counter, LongAdder> counters = newCounters();
        counters.forEach((counter, adder) -> registry.meter(
                MetricName.brokerTopicMetric(counter.metricName()).forTopic(topic), counter.eventType(), adder::sum));
        return counters;
    }

    /** Sets a gauge of a partition. */
    void set(Gauge gauge, TopicIdPartition partition, long value) {
        partitionGauges
                .computeIfAbsent(partition, p -> {
                    for (Gauge each : Gauge.values()) {
                        registry.gauge(
                                MetricName.brokerTopicMetric(each.metricName()).forTopic(p.topic()),
                                () -> value(each, p.topic()));
                    }
                    return new AtomicLongArray(Gauge.values().length);
                })
                .set(gauge.ordinal(), value);
    }

    /** Forgets a partition's gauges, once the broker no longer tiers it; and its topic's, with its last partition. */
    void removePartition(TopicIdPartition partition) {
        partitionGauges.remove(partition);
        if (partitionGauges.keySet().stream().noneMatch(p -> p.topic().equals(partition.topic()))) {
            for (Gauge gauge : Gauge.values()) {
                registry.remove(MetricName.brokerTopicMetric(gauge.metricName()).forTopic(partition.topic()));
            }
        }
    }

    /** Forgets a deleted topic: its counters and gauges leave the registry. */
    void removeTopic(String topic) {
        partitionGauges.keySet().removeIf(p -> p.topic().equals(topic));
        for (Gauge gauge : Gauge.values()) {
            registry.remove(MetricName.brokerTopicMetric(gauge.metricName()).forTopic(topic));
        }
        if (topicCounters.remove(topic) != null) {
            for (Counter counter : Counter.values()) {
                registry.remove(
                        MetricName.brokerTopicMetric(counter.metricName()).forTopic(topic));
            }
        }
    }

    /** A counter of one topic; 0 for a topic never counted. */
    public long count(Counter counter, String topic) {
        EnumMap<Counter, LongAdder> counters = topicCounters.get(topic);
        return counters == null ? 0 : counters.get(counter).sum();
    }

    /** A counter of all topics. */
    public long totalCount(Counter counter) {
        return totalCounters.get(counter).sum();
    }

    /** A gauge of one topic: the sum over its partitions. */
    public long value(Gauge gauge, String topic) {
        return partitionGauges.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic))
                .mapToLong(e -> e.getValue().get(gauge.ordinal()))
                .sum();
    }

    /** A gauge of one partition; 0 for a partition not tiered here. */
    public long value(Gauge gauge, TopicIdPartition partition) {
        AtomicLongArray gauges = partitionGauges.get(partition);
        return gauges == null ? 0 : gauges.get(gauge.ordinal());
    }

    /** A gauge of all topics. */
    public long totalValue(Gauge gauge) {
        return partitionGauges.values().stream()
                .mapToLong(gauges -> gauges.get(gauge.ordinal()))
                .sum();
    }

    private static EnumMap<Counter, LongAdder> newCounters() {
        EnumMap<Counter, LongAdder> counters = new EnumMap<>(Counter.class);
        for (Counter counter : Counter.values()) {
            counters.put(counter, new LongAdder());
        }
        return counters;
    }
}
