package io.krabka.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads the results file JMH writes with {@code -rf json}. */
final class JmhJson {

    private JmhJson() {}

    /**
     * Every benchmark's scores in the file.
     *
     * @throws IOException              if the file cannot be read or is not JSON
     * @throws IllegalArgumentException if it is JSON but not JMH's results, or a result has no per-round scores
     *                                  (the {@code sample} mode keeps a histogram instead)
     */
    static List<Score> read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException(file + " is not a JMH JSON result: expected an array of results");
        }
        List<Score> scores = new ArrayList<>();
        for (JsonNode result : root) {
            scores.add(score(file, result));
        }
        return scores;
    }

    private static Score score(Path file, JsonNode result) {
        String benchmark = text(file, result, "benchmark");
        JsonNode metric = result.path("primaryMetric");
        JsonNode forks = metric.path("rawData");
        if (!forks.isArray()) {
            throw new IllegalArgumentException(file + ": " + benchmark + " has no primaryMetric.rawData" + " (mode "
                    + result.path("mode").asText("?") + " keeps no per-round scores)");
        }
        List<Double> rounds = new ArrayList<>();
        for (JsonNode fork : forks) {
            for (JsonNode round : fork) {
                rounds.add(round.asDouble());
            }
        }
        Map<String, String> params = new TreeMap<>();
        result.path("params")
                .properties()
                .forEach(param -> params.put(param.getKey(), param.getValue().asText()));
        int dot = benchmark.lastIndexOf('.');
        if (dot <= 0) {
            throw new IllegalArgumentException(file + ": \"" + benchmark + "\" is not a benchmark's Class.method name");
        }
        String className = benchmark.substring(benchmark.lastIndexOf('.', dot - 1) + 1, dot);
        return new Score(
                className,
                benchmark.substring(dot + 1),
                new TreeMap<>(params),
                text(file, result, "mode"),
                text(file, metric, "scoreUnit"),
                rounds);
    }

    private static String text(Path file, JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException(file + " is not a JMH JSON result: a result has no \"" + field + "\"");
        }
        return value.asText();
    }
}
