/**
 * A sample remote tier for Krabka: each remote segment, its indexes included, is one pack file in a directory.
 * Krabka finds the provider through {@code provides} and loads the plugin's folder as a module layer of its own.
 */
module com.example.krabka.rsm.sample {
    requires io.krabka.spi;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider
            with com.example.krabka.rsm.sample.PackedRemoteStorageManagerProvider;
}
