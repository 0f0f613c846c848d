package io.krabka.kernel.broker;

import io.krabka.spi.plugin.OfferedKeys;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What Kafka's {@code RemoteLogManager.configureRLMM} hands the metadata manager besides its own settings: the
 * address of the listener {@code remote.log.metadata.manager.listener.name} as the bootstrap servers and security
 * protocol of its clients, under {@code remote.log.metadata.common.client.}. Kafka gives nothing when the name is
 * unset; Krabka, which has one broker listener, then gives that one, so the topic-based manager works on defaults.
 */
final class MetadataManagerListener {

    static final String BOOTSTRAP_SERVERS = OfferedKeys.METADATA_BOOTSTRAP_SERVERS;
    static final String SECURITY_PROTOCOL = OfferedKeys.METADATA_SECURITY_PROTOCOL;
    private static final String LISTENER_NAME = "remote.log.metadata.manager.listener.name";

    private MetadataManagerListener() {}

    /**
     * The settings for the broker listener {@code broker}; none while its port is not chosen yet (port 0), since
     * the manager is configured before the broker listens.
     *
     * @throws BrokerConfigException if {@code listenerName} names no broker listener, as Kafka refuses it
     */
    static Map<String, Object> offered(Endpoint broker, Optional<String> listenerName) {
        if (listenerName.isPresent()
                && !listenerName.get().trim().toUpperCase(Locale.ROOT).equals(broker.name())) {
            throw new BrokerConfigException(
                    LISTENER_NAME,
                    listenerName.get(),
                    "should be set as a listener name within valid broker listener name list: [" + broker.name() + "]");
        }
        if (broker.port() == 0) {
            return Map.of();
        }
        // A wildcard listener is reached on loopback: the manager runs inside this broker.
        Endpoint reached = broker.isWildcard() ? broker.at("localhost", broker.port()) : broker;
        return Map.of(BOOTSTRAP_SERVERS, reached.hostPort(), SECURITY_PROTOCOL, "PLAINTEXT");
    }
}
