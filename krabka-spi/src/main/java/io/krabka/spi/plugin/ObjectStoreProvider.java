package io.krabka.spi.plugin;

import io.krabka.spi.objectstore.ObjectStore;

/**
 * Declares an {@link ObjectStore} plugin: a bucket or directory that the write-once archive, {@code krabka verify}
 * and {@code krabka restore} work over. A plugin that is also a remote tier declares both providers under the
 * same name ({@code s3}, {@code gcs}, {@code local}); names are unique within a kind.
 */
public non-sealed interface ObjectStoreProvider extends PluginProvider<ObjectStore> {

    /** Always {@link PluginKind#OBJECT_STORE}. */
    @Override
    default PluginKind kind() {
        return PluginKind.OBJECT_STORE;
    }
}
