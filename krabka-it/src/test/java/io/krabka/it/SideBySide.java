package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The verdict of a side-by-side test: Krabka's answers to a scenario against Kafka's, step by step. */
final class SideBySide {

    private SideBySide() {}

    /**
     * Asserts that Krabka gave every answer Kafka gave, at the same steps; a failure lists each step that differs
     * with both answers.
     *
     * @param kafka  each step's answer from Kafka, in the scenario's order
     * @param krabka each step's answer from Krabka
     */
    static void assertSameAnswers(Map<String, String> kafka, Map<String, String> krabka) {
        List<String> differences = new ArrayList<>();
        kafka.forEach((step, theirs) -> {
            if (!theirs.equals(krabka.get(step))) {
                differences.add(step + "\n  Kafka:  " + theirs + "\n  Krabka: " + krabka.get(step));
            }
        });
        assertEquals(kafka.keySet(), krabka.keySet());
        assertEquals(List.of(), differences);
    }
}
