package io.krabka.spi.plugin;

import io.krabka.spi.storage.RemoteStorageManager;

/** Declares a {@link RemoteStorageManager} plugin. */
public non-sealed interface RemoteStorageManagerProvider extends PluginProvider<RemoteStorageManager> {

    /** Always {@link PluginKind#REMOTE_STORAGE_MANAGER}. */
    @Override
    default PluginKind kind() {
        return PluginKind.REMOTE_STORAGE_MANAGER;
    }
}
