package io.krabka.archive.verify;

/**
 * Told how far verification has come, from the verifying threads (so an implementation must be thread-safe and
 * quick): after every object checked, the totals so far.
 */
@FunctionalInterface
public interface VerifyProgress {

    /** Progress that nobody watches. */
    VerifyProgress NONE = (objects, bytes) -> {};

    /**
     * The totals so far.
     *
     * @param objectsChecked the objects checked over all partitions
     * @param bytesChecked   the bytes hashed over all partitions (deep verification only)
     */
    void checked(long objectsChecked, long bytesChecked);
}
