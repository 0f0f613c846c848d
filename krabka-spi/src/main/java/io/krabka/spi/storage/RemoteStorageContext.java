package io.krabka.spi.storage;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.PluginMetrics;
import java.util.Iterator;

/**
 * What the kernel hands a remote storage manager that works over an object store
 * ({@link io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider}), before configuring it.
 */
public interface RemoteStorageContext {

    /**
     * {@return the object store the settings name, configured and checked} Owned by the kernel, which closes it
     * after the manager.
     */
    ObjectStore objectStore();

    /** {@return the name of the object-store plugin, for messages ({@code s3}, {@code gcs}, {@code local})} */
    String objectStoreName();

    /**
     * The metadata the broker's remote log metadata manager holds of a partition's remote segments, in every
     * state, with their custom metadata: read-only, so that a manager can resume what it stamps into the
     * segments it copies (a write-once archive's chain) after a restart.
     *
     * @param topicIdPartition the partition
     * @return the partition's remote segments, in every state
     * @throws RemoteStorageException if the metadata manager fails the lookup
     */
    Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException;

    /** {@return where the manager publishes its own metrics} */
    PluginMetrics metrics();
}
