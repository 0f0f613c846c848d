package io.krabka.kernel.log;

/** Why the log start offset moved up, for the log: Kafka's {@code LogStartOffsetIncrementReason}. */
public enum LogStartOffsetIncrementReason {

    /** A follower learned the leader's log start offset. */
    LEADER_OFFSET_INCREMENTED("leader offset increment"),

    /** A DeleteRecords request. */
    CLIENT_RECORD_DELETION("client delete records request"),

    /** Retention deleted segments. */
    SEGMENT_DELETION("segment deletion"),

    /** A metadata log snapshot was taken. */
    SNAPSHOT_GENERATED("snapshot generated");

    private final String reason;

    LogStartOffsetIncrementReason(String reason) {
        this.reason = reason;
    }

    @Override
    public String toString() {
        return reason;
    }
}
