package io.krabka.spi.objectstore;

/** How firmly a store keeps an object from being deleted or overwritten before its retention ends. */
public enum RetentionMode {
    /** Nothing keeps it: whoever may write may delete. */
    NONE,
    /**
     * A retention that a privileged caller can lift: S3 Object Lock in GOVERNANCE mode, an unlocked GCS retention
     * policy.
     */
    GOVERNANCE,
    /**
     * A retention no one can shorten or remove, the account's owner included: S3 Object Lock in COMPLIANCE mode,
     * a locked GCS retention policy (Bucket Lock).
     */
    COMPLIANCE
}
