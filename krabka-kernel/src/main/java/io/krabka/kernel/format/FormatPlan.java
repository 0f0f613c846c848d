package io.krabka.kernel.format;

import java.util.Objects;

/**
 * A format checked and decided but not yet written: {@link Formatter#plan} makes it, {@link Formatter#write}
 * writes it.
 *
 * @param spec   what was asked
 * @param result what writing it formats: the features and each directory with its id
 */
public record FormatPlan(FormatSpec spec, FormatResult result) {

    /** Checks the parts. */
    public FormatPlan {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(result, "result");
    }
}
