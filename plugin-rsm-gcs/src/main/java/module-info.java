/**
 * A RemoteStorageManager on Google Cloud Storage, named {@code gcs}. The google-cloud-storage client splits packages
 * across its jars, so it cannot be read as modules: this module reads it from the class path, and the plugin's jar
 * ships without this descriptor, for the kernel's isolated class loader (the provider below reaches
 * META-INF/services at build time).
 */
module io.krabka.plugin.rsm.gcs {
    requires io.krabka.spi;
    requires io.krabka.objectstore;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider
            with io.krabka.plugin.rsm.gcs.GcsRemoteStorageManagerProvider;
}
