package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import java.util.List;

/**
 * Declares the {@code topic} remote log metadata manager, {@link TopicBasedRemoteLogMetadataManager}, also
 * selected by the name of Kafka's class, so that a Kafka broker's {@code server.properties} picks it as is.
 */
public final class TopicBasedRemoteLogMetadataManagerProvider implements RemoteLogMetadataManagerProvider {

    /** The class name Kafka's configuration selects its topic-based manager by. */
    static final String KAFKA_CLASS =
            "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager";

    /** The provider the kernel finds through the module's {@code provides} clause. */
    public TopicBasedRemoteLogMetadataManagerProvider() {}

    @Override
    public String name() {
        return "topic";
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
        return TopicBasedRemoteLogMetadataManagerConfig.KEYS;
    }

    @Override
    public RemoteLogMetadataManager create() {
        return new TopicBasedRemoteLogMetadataManager();
    }

    @Override
    public String description() {
        return "Remote log segment metadata in the __remote_log_metadata topic, in Kafka's own records and partitioning";
    }
}
