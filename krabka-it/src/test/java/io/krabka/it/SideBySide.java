package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The answers of one scenario on Kafka and on Krabka, step by step: the same steps, each answered alike. */
final class SideBySide {

    private SideBySide() {}

    /** Fails listing every step whose answers differ, with both answers. */
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
