package io.krabka.kernel.metadata;

/**
 * A broker component that follows the cluster metadata (Kafka's {@code MetadataPublisher}): the replica manager
 * creating and deleting logs, the group coordinator, the config cache.
 */
public interface MetadataPublisher {

    /** The publisher's name, for the log. */
    String name();

    /**
     * Takes a newly committed image. Called in commit order, one call at a time, first at start-up with
     * {@code previous} = {@link MetadataImage#EMPTY}; the controller completes the write that made {@code current}
     * only after every publisher has returned.
     */
    void onMetadataUpdate(MetadataImage previous, MetadataImage current);
}
