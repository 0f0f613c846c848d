package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the broker hands the metadata manager's clients, as Kafka's RemoteLogManager.configureRLMM. */
class MetadataManagerListenerTest {

    private static final Endpoint BROKER = new Endpoint("PLAINTEXT", "10.0.0.7", 9092);

    @Test
    void theNamedListenersAddressUnderTheCommonClientPrefix() {
        assertEquals(
                Map.of(
                        "remote.log.metadata.common.client.bootstrap.servers",
                        "10.0.0.7:9092",
                        "remote.log.metadata.common.client.security.protocol",
                        "PLAINTEXT"),
                MetadataManagerListener.offered(BROKER, Optional.of("plaintext")));
    }

    @Test
    void withoutANameTheBrokerListenerAndAWildcardIsReachedOnLoopback() {
        assertEquals(
                "localhost:9092",
                MetadataManagerListener.offered(new Endpoint("PLAINTEXT", "", 9092), Optional.empty())
                        .get(MetadataManagerListener.BOOTSTRAP_SERVERS));
    }

    @Test
    void nothingWhileThePortIsNotChosen() {
        assertEquals(
                Map.of(), MetadataManagerListener.offered(new Endpoint("PLAINTEXT", "127.0.0.1", 0), Optional.empty()));
    }

    @Test
    void aNameThatIsNoBrokerListenerIsRefusedAsKafkaRefusesIt() {
        BrokerConfigException e = assertThrows(
                BrokerConfigException.class, () -> MetadataManagerListener.offered(BROKER, Optional.of("CONTROLLER")));
        assertTrue(e.getMessage().contains("remote.log.metadata.manager.listener.name"), e.getMessage());
    }
}
