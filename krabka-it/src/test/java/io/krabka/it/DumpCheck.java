package io.krabka.it;

import java.util.ArrayList;
import java.util.List;

/**
 * Kafka's whole judgement of files by DumpLogSegments ({@link DumpLogSegments#check}).
 *
 * @param deepIteration the run with --deep-iteration and --verify-index-only: every batch and record of the logs,
 *                      index entries verified against them, snapshots and transaction indexes read
 * @param sanityCheck   the run with --index-sanity-check over the offset and time indexes
 */
record DumpCheck(DumpReport deepIteration, DumpReport sanityCheck) {

    /** Every error of both runs. */
    List<DumpError> errors() {
        List<DumpError> errors = new ArrayList<>(deepIteration.errors());
        errors.addAll(sanityCheck.errors());
        return errors;
    }

    /** The errors and where the raw outputs are: for assertion messages. */
    String describe() {
        return "deep iteration: " + deepIteration.describe() + "\nindex sanity check: " + sanityCheck.describe();
    }
}
