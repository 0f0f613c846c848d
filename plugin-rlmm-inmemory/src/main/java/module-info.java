/**
 * An in-memory RemoteLogMetadataManager with a JSON snapshot of its cache. The package is exported so that tools,
 * such as restore, can load and write snapshots through {@code InMemoryRemoteLogMetadataManager}.
 */
module io.krabka.plugin.rlmm.inmemory {
    requires transitive io.krabka.spi;
    requires io.krabka.rlmm.cache;
    requires com.fasterxml.jackson.databind;

    exports io.krabka.plugin.rlmm.inmemory;

    provides io.krabka.spi.plugin.RemoteLogMetadataManagerProvider with
            io.krabka.plugin.rlmm.inmemory.InMemoryRemoteLogMetadataManagerProvider;
}
