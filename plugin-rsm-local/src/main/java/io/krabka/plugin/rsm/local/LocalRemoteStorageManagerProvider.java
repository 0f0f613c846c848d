package io.krabka.plugin.rsm.local;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/**
 * Declares the {@code local} remote storage manager: a local directory laid out as Kafka's LocalTieredStorage, also
 * selected by the name of Kafka's class, so that a Kafka broker's {@code server.properties} picks it as is.
 */
public final class LocalRemoteStorageManagerProvider implements RemoteStorageManagerProvider {

    /** The class name Kafka's configuration selects its LocalTieredStorage by. */
    static final String KAFKA_CLASS = "org.apache.kafka.server.log.remote.storage.LocalTieredStorage";

    /** The provider, as the service loader creates it. */
    public LocalRemoteStorageManagerProvider() {}

    @Override
    public String name() {
        return "local";
    }

    @Override
    public List<String> aliases() {
        return List.of(KAFKA_CLASS);
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return LocalStorageConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create() {
        return new LocalRemoteStorageManager();
    }

    @Override
    public String description() {
        return "Remote tier on a local directory, laid out as Kafka's LocalTieredStorage; atomic, durable copies.";
    }
}
