package io.krabka.spi.storage;

/**
 * The lifecycle of a segment in the remote tier, with Kafka's byte ids:
 * {@code COPY_SEGMENT_STARTED -> COPY_SEGMENT_FINISHED -> DELETE_SEGMENT_STARTED -> DELETE_SEGMENT_FINISHED},
 * where a copy that never finished may also go straight to {@code DELETE_SEGMENT_STARTED}.
 */
public enum RemoteLogSegmentState {
    /** The copy has begun; the segment is not yet readable from the remote tier. */
    COPY_SEGMENT_STARTED((byte) 0),
    /** The copy is complete; the segment is readable. */
    COPY_SEGMENT_FINISHED((byte) 1),
    /** The deletion has begun; the segment is no longer readable. */
    DELETE_SEGMENT_STARTED((byte) 2),
    /** The segment is gone from the remote tier. */
    DELETE_SEGMENT_FINISHED((byte) 3);

    private final byte id;

    RemoteLogSegmentState(byte id) {
        this.id = id;
    }

    /** {@return Kafka's id for this state, as stored in {@code __remote_log_metadata}} */
    public byte id() {
        return id;
    }

    /**
     * The state with Kafka's id.
     *
     * @param id Kafka's id
     * @return the state
     * @throws IllegalArgumentException for an unknown id
     */
    public static RemoteLogSegmentState forId(byte id) {
        for (RemoteLogSegmentState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown remote log segment state id " + id);
    }

    /**
     * Whether Kafka's lifecycle allows going from {@code source} to {@code target}. A null source is a segment
     * not yet known, which may only start a copy; staying in the same state is allowed, so that a retried or
     * replayed event is harmless.
     *
     * @param source the state now; null for a segment not yet known
     * @param target the state to go to
     * @return whether the transition is allowed
     */
    public static boolean isValidTransition(RemoteLogSegmentState source, RemoteLogSegmentState target) {
        if (target == null) {
            return false;
        }
        if (source == null) {
            return target == COPY_SEGMENT_STARTED;
        }
        if (source == target) {
            return true;
        }
        return switch (source) {
            case COPY_SEGMENT_STARTED -> target == COPY_SEGMENT_FINISHED || target == DELETE_SEGMENT_STARTED;
            case COPY_SEGMENT_FINISHED -> target == DELETE_SEGMENT_STARTED;
            case DELETE_SEGMENT_STARTED -> target == DELETE_SEGMENT_FINISHED;
            case DELETE_SEGMENT_FINISHED -> false;
        };
    }

    /**
     * Checks a transition from this state.
     *
     * @param target the state to go to
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow it
     */
    public void checkTransitionTo(RemoteLogSegmentState target) {
        if (!isValidTransition(this, target)) {
            throw new InvalidStateTransitionException(
                    "remote log segment state cannot go from " + this + " to " + target);
        }
    }
}
