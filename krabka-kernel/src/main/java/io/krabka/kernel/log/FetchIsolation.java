package io.krabka.kernel.log;

/** How far a read may go: Kafka's {@code FetchIsolation}. */
public enum FetchIsolation {

    /** To the log end offset: a follower's fetch. */
    LOG_END,

    /** To the high watermark: a read_uncommitted consumer's fetch. */
    HIGH_WATERMARK,

    /** To the last stable offset, with the aborted transactions listed: a read_committed consumer's fetch. */
    TXN_COMMITTED
}
