package io.krabka.kernel.log;

/** Where an append comes from, which decides how much of it the producer state validates. Kafka's names. */
public enum AppendOrigin {

    /**
     * A follower copying the leader's batches, or the log rebuilding its producer state from its own batches:
     * sequences are not checked and a stale epoch is only logged, since the leader validated them already.
     */
    REPLICATION,

    /** A coordinator writing its own records or transaction markers: epochs are checked, sequences are not. */
    COORDINATOR,

    /** A producer's request: epochs and sequences are checked. */
    CLIENT,

    /** The KRaft leader writing the metadata log. */
    RAFT_LEADER
}
