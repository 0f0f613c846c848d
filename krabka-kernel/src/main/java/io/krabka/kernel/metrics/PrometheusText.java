package io.krabka.kernel.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metrics in Prometheus' text exposition format (version 0.0.4): one family per metric name and attribute, its
 * samples those of every tag set, under a {@code # HELP} line naming the JMX attribute and a {@code # TYPE} line.
 * A {@code Count} is a counter (it only grows); every other attribute, rates and percentiles included, a gauge. The
 * percentiles stay gauges of their own, not a summary's {@code quantile} labels: a summary would rename them and give
 * {@code _count} a {@code _sum} it has not got.
 */
final class PrometheusText {

    private record Family(String help, String type, List<String> samples) {}

    private final Map<String, Family> families = new LinkedHashMap<>();

    /** Adds a metric's attributes to their families. */
    void add(MetricName name, Metric metric) {
        String labels = name.prometheusLabels();
        metric.attributes().forEach((attribute, value) -> {
            String family = name.prometheusFamily(attribute);
            families.computeIfAbsent(
                            family,
                            f -> new Family(
                                    attribute + " of " + name.jmxFamily(),
                                    attribute.equals("Count") ? "counter" : "gauge",
                                    new ArrayList<>()))
                    .samples()
                    .add(family + labels + " " + number(value));
        });
    }

    /** The text, families in the order first added: a metric's attributes in their order. */
    String text() {
        StringBuilder text = new StringBuilder();
        families.forEach((name, family) -> {
            text.append("# HELP ")
                    .append(name)
                    .append(' ')
                    .append(help(family.help()))
                    .append('\n');
            text.append("# TYPE ")
                    .append(name)
                    .append(' ')
                    .append(family.type())
                    .append('\n');
            family.samples().forEach(sample -> text.append(sample).append('\n'));
        });
        return text.toString();
    }

    /** A sample value: a whole number as it is, a double as Java writes it, or Prometheus' NaN, +Inf and -Inf. */
    static String number(Number value) {
        if (value instanceof Double d && !Double.isFinite(d)) {
            return d.isNaN() ? "NaN" : d > 0 ? "+Inf" : "-Inf";
        }
        return value.toString();
    }

    // A HELP text escapes a backslash and a line feed.
    private static String help(String text) {
        return text.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
