package io.krabka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summariser on JMH-shaped results: it reads, pairs and computes; it runs no benchmark. */
class RatiosTest {
    @TempDir
    Path dir;

    /** One JMH result entry, as {@code -rf json} writes it (fields the summariser ignores left out). */
    private static String result(String method, String mode, String params, String unit, String rawData) {
        return """
                {"jmhVersion": "1.37", "benchmark": "io.krabka.bench.%s", "mode": "%s", "threads": 1, %s
                 "primaryMetric": {"score": 0.0, "scoreUnit": "%s", "rawData": %s}, "secondaryMetrics": {}}
                """.formatted(method, mode, params.isEmpty() ? "" : "\"params\": {" + params + "},", unit, rawData);
    }

    private List<Score> read(String... results) throws IOException {
        Path file = Files.writeString(dir.resolve("result.json"), "[" + String.join(",", results) + "]");
        return JmhJson.read(file);
    }

    @Test
    void mediansAreOverEveryRoundOfEveryFork() throws IOException {
        List<Score> scores = read(
                result("Index.lookupKrabka", "thrpt", "", "ops/us", "[[5.0, 1.0], [9.0]]"),
                result("Index.lookupKafka", "thrpt", "", "ops/us", "[[4.0, 1.0], [2.0, 100.0]]"));

        assertEquals(List.of(5.0, 1.0, 9.0), scores.get(0).rounds());
        assertEquals(5.0, scores.get(0).median());
        assertEquals(3.0, scores.get(1).median());
    }

    @Test
    void krabkaPairsWithItsReferenceWhicheverComesFirst() throws IOException {
        List<Pair> pairs = Pair.of(read(
                result("Index.lookupKafka", "thrpt", "", "ops/us", "[[2.0, 2.0, 2.0]]"),
                result("Index.lookupKrabka", "thrpt", "", "ops/us", "[[3.0, 3.0, 3.0]]")));

        assertEquals(1, pairs.size());
        Pair pair = pairs.getFirst();
        assertEquals("Index.lookup", pair.name());
        assertEquals("Kafka", pair.reference());
        assertEquals(Optional.of(1.5), pair.ratio());
    }

    @Test
    void pairsKeepParametersAndClassesApart() throws IOException {
        List<Pair> pairs = Pair.of(read(
                result("Tier.copyKrabka", "thrpt", "\"size\": \"1\"", "ops/s", "[[4.0]]"),
                result("Tier.copyKrabka", "thrpt", "\"size\": \"2\"", "ops/s", "[[8.0]]"),
                result("Tier.copyPlainFile", "thrpt", "\"size\": \"2\"", "ops/s", "[[2.0]]"),
                result("Tier.copyPlainFile", "thrpt", "\"size\": \"1\"", "ops/s", "[[1.0]]"),
                result("Other.copyPlainFile", "thrpt", "\"size\": \"1\"", "ops/s", "[[1.0]]")));

        assertEquals(
                List.of("Tier.copy{size=1}", "Tier.copy{size=2}", "Other.copyPlainFile{size=1}"),
                pairs.stream().map(Pair::name).toList());
        assertEquals(Optional.of(4.0), pairs.get(0).ratio());
        assertEquals(Optional.of(4.0), pairs.get(1).ratio());
        assertEquals(Optional.empty(), pairs.get(2).ratio());
    }

    @Test
    void aKrabkaMethodIsNotAnotherKrabkaMethodsReference() throws IOException {
        List<Pair> pairs = Pair.of(read(
                result("Index.lookupKrabka", "thrpt", "", "ops/us", "[[1.0]]"),
                result("Index.lookupFastKrabka", "thrpt", "", "ops/us", "[[2.0]]")));

        assertEquals(
                List.of("Index.lookup", "Index.lookupFast"),
                pairs.stream().map(Pair::name).toList());
        assertTrue(pairs.stream().allMatch(pair -> pair.other().isEmpty()));
    }

    @Test
    void twoCandidateReferencesAreAnError() throws IOException {
        List<Score> scores = read(
                result("Index.lookupKrabka", "thrpt", "", "ops/us", "[[1.0]]"),
                result("Index.lookupKafka", "thrpt", "", "ops/us", "[[1.0]]"),
                result("Index.lookupArray", "thrpt", "", "ops/us", "[[1.0]]"));

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Pair.of(scores));
        assertTrue(
                error.getMessage().contains("lookupKafka") && error.getMessage().contains("lookupArray"),
                error.getMessage());
    }

    @Test
    void theTableShowsMediansRatioRoundsAndWhichWayIsBetter() throws IOException {
        String table = Ratios.table(Pair.of(read(
                result("Index.lookupKrabka", "thrpt", "", "ops/us", "[[6.0, 5.0], [7.0]]"),
                result("Index.lookupKafka", "thrpt", "", "ops/us", "[[3.0, 2.0], [4.0]]"),
                result("Tier.fetchKrabka", "avgt", "", "ms/op", "[[12.5]]"))));

        List<String> lines = table.lines().toList();
        assertEquals(
                List.of("Index.lookup", "Kafka", "ops/us", "6.000", "3.000", "2.00", "3/3"),
                List.of(lines.get(1).split(" +")));
        assertEquals(
                List.of("Tier.fetch", "-", "ms/op", "12.50", "-", "-", "1/0"),
                List.of(lines.get(2).split(" +")));
        assertTrue(table.contains("thrpt: operations per time, higher is better"), table);
        assertTrue(table.contains("avgt: time per operation, lower is better"), table);
    }

    @Test
    void numbersKeepFourSignificantDigitsWithoutExponents() {
        assertEquals("123457", Ratios.format(123_456.7));
        assertEquals("123.5", Ratios.format(123.45));
        assertEquals("1.500", Ratios.format(1.5));
        assertEquals("0.001235", Ratios.format(0.0012345));
        assertEquals("0", Ratios.format(0));
    }

    @Test
    void resultsWithoutRoundsOrNotFromJmhAreRefused() throws IOException {
        Path sample = Files.writeString(
                dir.resolve("sample.json"),
                "[{\"benchmark\": \"io.krabka.bench.A.bKrabka\","
                        + " \"mode\": \"sample\", \"primaryMetric\": {\"scoreUnit\": \"ms/op\", \"rawDataHistogram\": []}}]");
        Path object = Files.writeString(dir.resolve("object.json"), "{\"benchmark\": \"x\"}");

        IllegalArgumentException noRounds = assertThrows(IllegalArgumentException.class, () -> JmhJson.read(sample));
        assertTrue(noRounds.getMessage().contains("mode sample keeps no per-round scores"), noRounds.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JmhJson.read(object));
    }
}
