package io.krabka.spi.plugin;

import io.krabka.spi.storage.RemoteLogMetadataManager;

/** Declares a {@link RemoteLogMetadataManager} plugin. */
public non-sealed interface RemoteLogMetadataManagerProvider extends PluginProvider<RemoteLogMetadataManager> {

    /** Always {@link PluginKind#REMOTE_LOG_METADATA_MANAGER}. */
    @Override
    default PluginKind kind() {
        return PluginKind.REMOTE_LOG_METADATA_MANAGER;
    }
}
