/** A RemoteStorageManager on a local directory, laid out exactly as Kafka's LocalTieredStorage. */
module io.krabka.plugin.rsm.local {
    requires io.krabka.spi;
}
