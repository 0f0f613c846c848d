package io.krabka.bench;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One benchmark's result from a JMH run: the score of every measured round (each iteration of each fork).
 *
 * @param benchmarkClass the simple name of the benchmark class
 * @param method         the benchmark method
 * @param params         the {@code @Param} values, by name
 * @param mode           JMH's short mode name: {@code thrpt}, {@code avgt}, {@code ss}
 * @param unit           the unit of the scores, e.g. {@code ops/us}
 * @param rounds         the score of every round, at least one
 */
record Score(
        String benchmarkClass,
        String method,
        SortedMap<String, String> params,
        String mode,
        String unit,
        List<Double> rounds) {

    /** Checks the parts and freezes them. */
    Score {
        Objects.requireNonNull(benchmarkClass, "benchmarkClass");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(unit, "unit");
        params = new TreeMap<>(params);
        rounds = List.copyOf(rounds);
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException(benchmarkClass + "." + method + " has no measured rounds");
        }
    }

    /** The middle round, or the mean of the two middle ones: what one noisy round cannot move far. */
    double median() {
        double[] sorted =
                rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Whether a higher score is the better one: throughput; for times, lower is better. */
    boolean higherIsBetter() {
        return mode.equals("thrpt");
    }

    /** {@code Class.method}, with the parameters when there are any: {@code Class.method{size=1}}. */
    String displayName(String name) {
        String shown = benchmarkClass + "." + name;
        return params.isEmpty()
                ? shown
                : shown
                        + params.entrySet().stream()
                                .map(Map.Entry::toString)
                                .collect(Collectors.joining(",", "{", "}"));
    }
}
