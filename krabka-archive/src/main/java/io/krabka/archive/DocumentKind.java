package io.krabka.archive;

/** The documents of the archive format, named in errors and reports. */
public enum DocumentKind {
    /** A segment manifest, {@code <base>-<segment id>.manifest}. */
    MANIFEST("manifest"),
    /** A {@code WormChainRecord}, the receipt in a segment's KIP-405 custom metadata. */
    CHAIN_RECORD("chain record"),
    /** The record of an abandoned copy, {@code <base>-<segment id>.abandoned}. */
    ABANDONMENT_RECORD("abandonment record");

    private final String description;

    DocumentKind(String description) {
        this.description = description;
    }

    /** The document's name in messages: "manifest", "chain record", "abandonment record". */
    public String description() {
        return description;
    }
}
