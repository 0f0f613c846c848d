package io.krabka.kernel.group;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of a classic group, with Kafka's names and transitions ({@code ClassicGroupState}):
 * <pre>
 *   Empty --join--> PreparingRebalance --all joined or timeout--> CompletingRebalance --leader sync--> Stable
 *   Stable/CompletingRebalance --join, leave, expiry--> PreparingRebalance
 *   PreparingRebalance --every member gone--> Empty;  Empty --deleted or expired--> Dead
 * </pre>
 */
public enum ClassicGroupState {

    /** No members; offsets may remain. */
    EMPTY("Empty"),
    /** Waiting for the members to (re)join. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** Joined; waiting for the leader's assignment. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Every member has its assignment. */
    STABLE("Stable"),
    /** Deleted: about to be removed from the coordinator. */
    DEAD("Dead");

    private final String kafkaName;

    ClassicGroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** The state's name on the wire (ListGroups, DescribeGroups). */
    @Override
    public String toString() {
        return kafkaName;
    }

    /** The states this one may be entered from. */
    Set<ClassicGroupState> validPreviousStates() {
        return switch (this) {
            case EMPTY -> EnumSet.of(PREPARING_REBALANCE);
            case PREPARING_REBALANCE -> EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY);
            case COMPLETING_REBALANCE -> EnumSet.of(PREPARING_REBALANCE);
            case STABLE -> EnumSet.of(COMPLETING_REBALANCE);
            case DEAD -> EnumSet.of(STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD);
        };
    }
}
