/**
 * A remote tier over an object store: the key layout of segment artifacts, and the {@code RemoteStorageManager}
 * that puts them in the {@link io.krabka.spi.objectstore.ObjectStore} a plugin implements for its service.
 * Shared by the S3 and Google Cloud Storage plugins, each of which bundles it; the kernel does not read it.
 */
module io.krabka.objectstore {
    requires transitive io.krabka.spi;

    exports io.krabka.objectstore;
}
