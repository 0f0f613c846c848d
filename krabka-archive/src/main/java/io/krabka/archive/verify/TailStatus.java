package io.krabka.archive.verify;

/**
 * What is known of a partition's tail. An archive alone cannot show that manifests were cut off its end: only a
 * head remembered elsewhere ({@code --expect-head}) can.
 */
public enum TailStatus {
    /** No expected head was given: the tail may have been truncated unseen. */
    UNVERIFIED,
    /** The partition's tip is the expected head. */
    VERIFIED,
    /** The partition's tip is not the expected head. */
    MISMATCH
}
