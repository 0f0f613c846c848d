package io.krabka.kernel.format;

/** What a formatted log directory is for, named as Kafka's format tool names it. */
public enum DirectoryType {
    /** A directory for partition logs only. */
    LOG_DIRECTORY("data directory"),
    /** The metadata log directory of a node that is not an initial voter. */
    DYNAMIC_METADATA_NON_VOTER_DIRECTORY("dynamic metadata directory"),
    /** The metadata log directory of an initial voter. */
    DYNAMIC_METADATA_VOTER_DIRECTORY("dynamic metadata voter directory");

    private final String description;

    DirectoryType(String description) {
        this.description = description;
    }

    /** Kafka's words for it. */
    public String description() {
        return description;
    }
}
