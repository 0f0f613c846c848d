package io.krabka.kernel.metrics;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.stream.Collectors;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A metric's name as Kafka's broker gives it on JMX ({@code kafka.server:type=BrokerTopicMetrics,name=...,topic=...}),
 * so the dashboards and JMX exporter rules operators keep for Kafka read Krabka too.
 *
 * @param group the JMX domain, such as {@code kafka.server}
 * @param type  the {@code type} key, such as {@code BrokerTopicMetrics}
 * @param name  the {@code name} key, such as {@code RemoteCopyBytesPerSec}
 * @param tags  further keys in order, such as {@code topic}
 */
public record MetricName(String group, String type, String name, SequencedMap<String, String> tags) {

    public MetricName {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        tags = new LinkedHashMap<>(tags);
    }

    /** A name without tags. */
    public static MetricName of(String group, String type, String name) {
        return new MetricName(group, type, name, new LinkedHashMap<>());
    }

    /** Kafka's {@code kafka.server:type=BrokerTopicMetrics,name=...}: of all topics, or {@link #forTopic} one. */
    public static MetricName brokerTopicMetric(String name) {
        return of("kafka.server", "BrokerTopicMetrics", name);
    }

    /** This name for one topic ({@code topic=...}). */
    public MetricName forTopic(String topic) {
        return tagged("topic", topic);
    }

    /** This name with one more tag. */
    public MetricName tagged(String key, String value) {
        SequencedMap<String, String> more = new LinkedHashMap<>(tags);
        more.put(key, value);
        return new MetricName(group, type, name, more);
    }

    /** The JMX object name; tag values are quoted when JMX needs them to be. */
    public ObjectName objectName() {
        StringBuilder text = new StringBuilder(group)
                .append(":type=")
                .append(type)
                .append(",name=")
                .append(name);
        tags.forEach((key, value) -> text.append(',').append(key).append('=').append(jmxValue(value)));
        try {
            return new ObjectName(text.toString());
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a JMX name: " + text, e);
        }
    }

    private static String jmxValue(String value) {
        return value.chars().anyMatch(c -> ",=:\"*?\n".indexOf(c) >= 0) ? ObjectName.quote(value) : value;
    }

    /**
     * The Prometheus metric family of one attribute, e.g. {@code kafka_server_brokertopicmetrics_remotecopybytespersec_count}
     * for {@code Count}: the name's group, type, name and the attribute in lower case, joined by {@code _}.
     */
    String prometheusFamily(String attribute) {
        return (group + "_" + type + "_" + name + "_" + attribute)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_]", "_");
    }

    /** The tags as Prometheus labels, e.g. {@code {topic="t"}}; empty without tags. */
    String prometheusLabels() {
        if (tags.isEmpty()) {
            return "";
        }
        return tags.entrySet().stream()
                .map(tag -> tag.getKey().replaceAll("[^a-zA-Z0-9_]", "_") + "=\"" + labelValue(tag.getValue()) + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** The JMX object name without the tags, such as {@code kafka.server:type=BrokerTopicMetrics,name=X}. */
    String jmxFamily() {
        return group + ":type=" + type + ",name=" + name;
    }

    // Prometheus' text format escapes a backslash, a double quote and a line feed in a label value.
    private static String labelValue(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
