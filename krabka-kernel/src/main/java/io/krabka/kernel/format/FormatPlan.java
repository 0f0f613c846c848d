package io.krabka.kernel.format;

import io.krabka.kernel.metadata.MetadataRecord;
import java.util.List;
import java.util.Objects;

/**
 * A format checked and decided but not yet written: {@link Formatter#plan} makes it, {@link Formatter#write}
 * writes it.
 *
 * @param spec   what was asked
 * @param result           what writing it formats: the features and each directory with its id
 * @param bootstrapRecords the SCRAM credentials and ACLs the bootstrap snapshot holds after the features
 */
public record FormatPlan(FormatSpec spec, FormatResult result, List<MetadataRecord> bootstrapRecords) {

    /** Checks the parts. */
    public FormatPlan {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(result, "result");
        bootstrapRecords = List.copyOf(bootstrapRecords);
    }
}
