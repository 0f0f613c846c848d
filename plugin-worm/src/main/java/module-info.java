/**
 * The write-once archive: the {@code worm} RemoteStorageManager over any object store the kernel opens for it,
 * with conditional creates, verified bucket retention and signed, hash-chained manifests.
 */
module io.krabka.plugin.worm {
    requires io.krabka.spi;
    requires io.krabka.objectstore;
    requires io.krabka.archive;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider with
            io.krabka.plugin.worm.WormRemoteStorageManagerProvider;
}
