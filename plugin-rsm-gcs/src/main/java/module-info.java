/**
 * Google Cloud Storage for Krabka: the {@code gcs} remote storage manager and the {@code gcs} object store over
 * the same store class. The google-cloud-storage client splits packages across its jars, so it cannot be read as
 * modules: this module reads it from the class path, and the plugin's jar ships without this descriptor, for the
 * kernel's isolated class loader (the providers below reach META-INF/services at build time).
 */
module io.krabka.plugin.rsm.gcs {
    requires io.krabka.spi;
    requires io.krabka.objectstore;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider with
            io.krabka.plugin.rsm.gcs.GcsRemoteStorageManagerProvider;
    provides io.krabka.spi.plugin.ObjectStoreProvider with
            io.krabka.plugin.rsm.gcs.GcsObjectStoreProvider;
}
