package io.krabka.kernel.tiered;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the broker hands a store-backed remote storage manager: the store it opened, and the broker's metadata
 * manager through its one read-only listing.
 *
 * @param objectStore     the store, configured and checked
 * @param objectStoreName the store's plugin name
 * @param metadata        the broker's remote log metadata manager, only listed; created after the storage
 *                        manager (as Kafka does), so it is looked up at each listing
 * @param metrics         where the manager's own metrics go
 */
public record BrokerRemoteStorageContext(
        ObjectStore objectStore,
        String objectStoreName,
        Supplier<RemoteLogMetadataManager> metadata,
        PluginMetrics metrics)
        implements RemoteStorageContext {

    /** Validates the parts. */
    public BrokerRemoteStorageContext {
        Objects.requireNonNull(objectStore, "objectStore");
        Objects.requireNonNull(objectStoreName, "objectStoreName");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException {
        RemoteLogMetadataManager rlmm = metadata.get();
        if (rlmm == null) {
            throw new RemoteStorageException("the remote log metadata manager is not started yet");
        }
        return rlmm.listRemoteLogSegments(topicIdPartition);
    }
}
