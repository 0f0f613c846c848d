package io.krabka.kernel.format;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a format did.
 *
 * @param features  the cluster's feature levels
 * @param formatted the directories formatted, in the order written
 * @param skipped   the directories left alone because they were formatted already
 */
public record FormatResult(BootstrapFeatures features, List<FormattedDirectory> formatted, List<Path> skipped) {

    /** Copies the lists. */
    public FormatResult {
        Objects.requireNonNull(features, "features");
        formatted = List.copyOf(formatted);
        skipped = List.copyOf(skipped);
    }
}
