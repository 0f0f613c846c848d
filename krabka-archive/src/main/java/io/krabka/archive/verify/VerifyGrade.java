package io.krabka.archive.verify;

/**
 * The grade of a verified archive. The launcher maps it to an exit code (0, 1, 3) in one place; an archive that
 * could not be read at all is no grade but an {@link ArchiveUnreadableException}.
 */
public enum VerifyGrade {
    /** Everything checked holds. */
    OK,
    /** The archive holds less attestation than it should: restarts, unsigned or untrusted manifests, incomplete
     * uploads, orphans under {@code --strict-orphans}. */
    INCOMPLETE,
    /** The archive is not what its manifests attest, or its tip is not the expected head. */
    TAMPERED;

    /** The graver of two grades. */
    VerifyGrade worst(VerifyGrade other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
