/**
 * The remote log metadata cache that the metadata-manager plugins share: {@link
 * io.krabka.rlmm.cache.RemotePartitionMetadataStore} answers every lookup as Kafka's {@code RemoteLogMetadataCache}
 * does, and {@link io.krabka.rlmm.cache.MetadataSnapshot} is its whole content as a value, for snapshots.
 */
module io.krabka.rlmm.cache {
    requires transitive io.krabka.spi;

    exports io.krabka.rlmm.cache;
}
