package io.krabka.spi.plugin;

/** The extension points a plugin can fill, each with the provider interface it implements. */
public enum PluginKind {
    /** A remote tier for segments: {@link RemoteStorageManagerProvider}. */
    REMOTE_STORAGE_MANAGER("rsm", RemoteStorageManagerProvider.class),
    /** A store of remote segment metadata: {@link RemoteLogMetadataManagerProvider}. */
    REMOTE_LOG_METADATA_MANAGER("rlmm", RemoteLogMetadataManagerProvider.class),
    /** A bucket or directory of objects, for the write-once archive, verify and restore: {@link ObjectStoreProvider}. */
    OBJECT_STORE("store", ObjectStoreProvider.class);

    private final String shortName;
    private final Class<? extends PluginProvider<?>> providerType;

    PluginKind(String shortName, Class<? extends PluginProvider<?>> providerType) {
        this.shortName = shortName;
        this.providerType = providerType;
    }

    /**
     * {@return the short name operators see} As in Kafka's {@code rsm.config.} and {@code rlmm.config.} prefixes.
     */
    public String shortName() {
        return shortName;
    }

    /** {@return the service interface a provider of this kind implements} */
    public Class<? extends PluginProvider<?>> providerType() {
        return providerType;
    }
}
