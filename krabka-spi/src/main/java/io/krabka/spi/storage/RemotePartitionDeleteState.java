package io.krabka.spi.storage;

/**
 * The lifecycle of deleting a whole partition from the remote tier, with Kafka's byte ids:
 * {@code DELETE_PARTITION_MARKED -> DELETE_PARTITION_STARTED -> DELETE_PARTITION_FINISHED}.
 */
public enum RemotePartitionDeleteState {
    /** The partition's topic was deleted; its remote data is to go. */
    DELETE_PARTITION_MARKED((byte) 0),
    /** Its remote segments are being deleted. */
    DELETE_PARTITION_STARTED((byte) 1),
    /** Its remote segments are gone. */
    DELETE_PARTITION_FINISHED((byte) 2);

    private final byte id;

    RemotePartitionDeleteState(byte id) {
        this.id = id;
    }

    /** {@return Kafka's id for this state} */
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
    public static RemotePartitionDeleteState forId(byte id) {
        for (RemotePartitionDeleteState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown remote partition delete state id " + id);
    }

    /**
     * Whether Kafka's lifecycle allows going from {@code source} to {@code target}. A null source is a partition
     * with no deletion yet, which may only be marked; staying in the same state is allowed.
     *
     * @param source the state now; null for a partition with no deletion yet
     * @param target the state to go to
     * @return whether the transition is allowed
     */
    public static boolean isValidTransition(RemotePartitionDeleteState source, RemotePartitionDeleteState target) {
        if (target == null) {
            return false;
        }
        if (source == null) {
            return target == DELETE_PARTITION_MARKED;
        }
        if (source == target) {
            return true;
        }
        return switch (source) {
            case DELETE_PARTITION_MARKED -> target == DELETE_PARTITION_STARTED;
            case DELETE_PARTITION_STARTED -> target == DELETE_PARTITION_FINISHED;
            case DELETE_PARTITION_FINISHED -> false;
        };
    }

    /**
     * Checks a transition from this state.
     *
     * @param target the state to go to
     * @throws InvalidStateTransitionException if Kafka's lifecycle does not allow it
     */
    public void checkTransitionTo(RemotePartitionDeleteState target) {
        if (!isValidTransition(this, target)) {
            throw new InvalidStateTransitionException(
                    "remote partition delete state cannot go from " + this + " to " + target);
        }
    }
}
