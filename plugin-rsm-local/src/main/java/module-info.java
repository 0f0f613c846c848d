/**
 * A RemoteStorageManager on a local directory, laid out exactly as Kafka's LocalTieredStorage, and the same
 * directory as an object store.
 */
module io.krabka.plugin.rsm.local {
    requires io.krabka.spi;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider with
            io.krabka.plugin.rsm.local.LocalRemoteStorageManagerProvider;
    provides io.krabka.spi.plugin.ObjectStoreProvider with
            io.krabka.plugin.rsm.local.LocalObjectStoreProvider;
}
