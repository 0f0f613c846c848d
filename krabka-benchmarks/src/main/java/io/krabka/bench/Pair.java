package io.krabka.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A Krabka benchmark and its reference, or a benchmark without its partner in the results. In a benchmark class,
 * {@code <name>Krabka} pairs with the one other method {@code <name><Reference>}, for the same parameters and mode:
 * {@code offsetLookupKrabka} with {@code offsetLookupKafka}, {@code copyKrabka} with {@code copyPlainFile}.
 *
 * @param name      the pair's name, {@code Class.name}
 * @param reference what Krabka is measured against, e.g. {@code Kafka}; empty when unknown: the reference is not
 *                  in the results, or this is a score without a Krabka side
 * @param krabka    Krabka's score; empty when only the reference was run
 * @param other     the reference's score
 */
record Pair(String name, String reference, Optional<Score> krabka, Optional<Score> other) {
    static final String KRABKA = "Krabka";

    /** Checks that there is at least one side. */
    Pair {
        if (krabka.isEmpty() && other.isEmpty()) {
            throw new IllegalArgumentException(name + " has neither side");
        }
    }

    /** Krabka's median over the reference's, or empty when a side is missing. */
    Optional<Double> ratio() {
        return krabka.isPresent() && other.isPresent()
                ? Optional.of(krabka.get().median() / other.get().median())
                : Optional.empty();
    }

    /** Pairs the scores: Krabka's in their order, each with its reference, then whatever is left alone. */
    static List<Pair> of(List<Score> scores) {
        Set<Score> unpaired = new LinkedHashSet<>(scores);
        List<Pair> pairs = new ArrayList<>();
        for (Score score : scores) {
            if (!score.method().endsWith(KRABKA)) {
                continue;
            }
            unpaired.remove(score);
            String base = score.method().substring(0, score.method().length() - KRABKA.length());
            List<Score> references = unpaired.stream()
                    .filter(other -> isReferenceOf(other, score, base))
                    .toList();
            if (references.size() > 1) {
                throw new IllegalArgumentException(score.displayName(score.method()) + " has more than one reference: "
                        + references.stream().map(Score::method).toList());
            }
            Optional<Score> reference = references.stream().findFirst();
            reference.ifPresent(unpaired::remove);
            pairs.add(new Pair(
                    score.displayName(base),
                    reference
                            .map(other -> other.method().substring(base.length()))
                            .orElse(""),
                    Optional.of(score),
                    reference));
        }
        for (Score alone : unpaired) {
            pairs.add(new Pair(alone.displayName(alone.method()), "", Optional.empty(), Optional.of(alone)));
        }
        return pairs;
    }

    private static boolean isReferenceOf(Score other, Score krabka, String base) {
        String method = other.method();
        return other.benchmarkClass().equals(krabka.benchmarkClass())
                && other.params().equals(krabka.params())
                && other.mode().equals(krabka.mode())
                && method.length() > base.length()
                && method.startsWith(base)
                && Character.isUpperCase(method.charAt(base.length()))
                && !method.endsWith(KRABKA);
    }
}
