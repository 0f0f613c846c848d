package io.krabka.kernel.restore;

import java.io.Serial;

/**
 * The archive and the old cluster's remote log metadata ({@code --rlmm-snapshot}) disagree about a partition's
 * segments: a segment the metadata says was deleted is still there, or one side has a segment the other lacks.
 */
public final class MetadataDisagreementException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The partition directory (or object) {@code key} disagrees with the snapshot as {@code detail} says. */
    public MetadataDisagreementException(String key, String detail) {
        super(key, detail);
    }
}
