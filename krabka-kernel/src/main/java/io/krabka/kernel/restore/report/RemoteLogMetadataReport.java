package io.krabka.kernel.restore.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the old cluster's remote log metadata ({@code --rlmm-snapshot}) contributed.
 *
 * @param snapshot             the snapshot read, if one was given
 * @param deletedSegmentsLeftOut segments still in the archive that the old cluster had deleted, left out
 * @param notes                one line each: what could not be told without a snapshot, topics named by it
 */
public record RemoteLogMetadataReport(Optional<String> snapshot, int deletedSegmentsLeftOut, List<String> notes) {

    /** Freezes the parts. */
    public RemoteLogMetadataReport {
        Objects.requireNonNull(snapshot, "snapshot");
        notes = List.copyOf(notes);
    }
}
