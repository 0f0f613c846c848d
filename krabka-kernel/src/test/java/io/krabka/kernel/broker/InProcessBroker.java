package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.kernel.metadata.MetadataRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A whole broker, {@link KrabkaServices} as {@code krabka broker} runs them, in the test's JVM on loopback ports, on a
 * directory formatted before each test and deleted after it; {@link #restart} closes it and starts it again on the
 * same directory. For {@code @RegisterExtension}.
 */
final class InProcessBroker implements BeforeEachCallback, AfterEachCallback {

    static final int NODE_ID = 1;

    private final Map<String, String> overrides;
    private final List<String> features;
    private Path dir;
    private Broker broker;

    private InProcessBroker(Map<String, String> overrides, List<String> features) {
        this.overrides = Map.copyOf(overrides);
        this.features = List.copyOf(features);
    }

    /**
     * A broker with these settings over the tests' defaults: no initial rebalance delay, few partitions of the
     * coordinators' topics (they load at once).
     */
    static InProcessBroker perTest(Map<String, String> overrides) {
        return new InProcessBroker(overrides, List.of());
    }

    /** As {@link #perTest(Map)}, formatted with these {@code --feature} levels ({@code name=level}). */
    static InProcessBroker perTest(Map<String, String> overrides, List<String> features) {
        return new InProcessBroker(overrides, features);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("in-process-broker-");
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(dir),
                        dir,
                        ClusterId.random(),
                        NODE_ID,
                        Optional.empty(),
                        Optional.empty(),
                        features,
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        broker = Broker.start(config(), new KrabkaServices());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            if (broker != null) {
                broker.close();
            }
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    /** Stops the broker cleanly and starts it again on the same directory (on new ports). */
    void restart() throws Exception {
        restart(List.of());
    }

    /**
     * As {@link #restart()}, appending {@code records} to the metadata log while the broker is down, as a Kafka
     * controller that had the directory would have left them.
     */
    void restart(List<MetadataRecord> records) throws Exception {
        broker.close();
        broker = null;
        if (!records.isEmpty()) {
            Controllers.appendToMetadataLog(dir, records);
        }
        broker = Broker.start(config(), new KrabkaServices());
    }

    /** {@code host:port} of the broker's listener. */
    String bootstrap() {
        return "127.0.0.1:" + broker.listenAddress().getPort();
    }

    Broker broker() {
        return broker;
    }

    private BrokerConfig config() {
        Map<String, String> props = new HashMap<>(Map.of(
                "node.id",
                String.valueOf(NODE_ID),
                "process.roles",
                "broker,controller",
                "listeners",
                "PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:0",
                "log.dirs",
                dir.toString(),
                "krabka.health.listen.addr",
                "",
                "group.initial.rebalance.delay.ms",
                "0",
                "offsets.topic.num.partitions",
                "3",
                "transaction.state.log.num.partitions",
                "3"));
        props.putAll(overrides);
        return BrokerConfig.fromProps(props);
    }
}
