package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.ApiVersions;
import org.apache.kafka.clients.BootstrapConfiguration;
import org.apache.kafka.clients.ManualMetadataUpdater;
import org.apache.kafka.clients.MetadataRecoveryStrategy;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.NetworkClientUtils;
import org.apache.kafka.clients.NodeApiVersions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.network.PlaintextChannelBuilder;
import org.apache.kafka.common.network.Selector;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;

/** Kafka 4.4's NetworkClient negotiating ApiVersions with a node, as every Kafka client does on connecting. */
public final class ClientNegotiation {

    private ClientNegotiation() {}

    /** Connects to node {@code nodeId} at {@code address}, waits until the client is ready; what it negotiated. */
    public static NodeApiVersions negotiate(int nodeId, InetSocketAddress address) throws IOException {
        Node node = new Node(nodeId, address.getHostString(), address.getPort());
        ApiVersions apiVersions = new ApiVersions();
        LogContext logContext = new LogContext();
        PlaintextChannelBuilder channelBuilder = new PlaintextChannelBuilder(null);
        channelBuilder.configure(Map.of());
        try (Metrics metrics = new Metrics();
                NetworkClient client = new NetworkClient(
                        new Selector(60_000, metrics, Time.SYSTEM, "test", channelBuilder, logContext),
                        new ManualMetadataUpdater(List.of(node)),
                        "krabka-test",
                        5,
                        50,
                        1000,
                        64 * 1024,
                        64 * 1024,
                        30_000,
                        10_000,
                        30_000,
                        Time.SYSTEM,
                        true,
                        apiVersions,
                        logContext,
                        MetadataRecoveryStrategy.NONE,
                        BootstrapConfiguration.DISABLED,
                        false)) {
            assertTrue(NetworkClientUtils.awaitReady(client, node, Time.SYSTEM, 30_000), "the client got ready");
            NodeApiVersions negotiated = apiVersions.get(node.idString());
            assertNotNull(negotiated, "the client negotiated versions");
            return negotiated;
        }
    }
}
