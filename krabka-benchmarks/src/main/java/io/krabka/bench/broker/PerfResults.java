package io.krabka.bench.broker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The measurements of every round of a whole-broker benchmark, by metric and broker, and their table: the median of
 * each side and the ratio Krabka/Kafka.
 */
final class PerfResults {
    private final Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();

    void add(String metric, String broker, double value) {
        values.computeIfAbsent(metric, m -> new LinkedHashMap<>())
                .computeIfAbsent(broker, b -> new ArrayList<>())
                .add(value);
    }

    /** The metrics measured, in the order first measured. */
    List<String> metrics() {
        return List.copyOf(values.keySet());
    }

    /** The median of {@code metric} on {@code broker}; NaN when it was not measured. */
    double median(String metric, String broker) {
        return PerfArguments.median(values.getOrDefault(metric, Map.of()).getOrDefault(broker, List.of()));
    }

    String table() {
        StringBuilder table = new StringBuilder(String.format(
                Locale.ROOT, "%-44s %12s %12s %7s  %s%n", "metric", "Krabka", "Kafka", "ratio", "better"));
        values.forEach((metric, byBroker) -> {
            double krabka = PerfArguments.median(byBroker.getOrDefault("Krabka", List.of()));
            double kafka = PerfArguments.median(byBroker.getOrDefault("Kafka", List.of()));
            boolean lowerIsBetter = metric.endsWith(" ms") || metric.contains("RSS");
            table.append(String.format(
                    Locale.ROOT,
                    "%-44s %12.1f %12.1f %7.2f  %s%n",
                    metric,
                    krabka,
                    kafka,
                    krabka / kafka,
                    lowerIsBetter ? "lower" : "higher"));
        });
        return table.toString();
    }
}
