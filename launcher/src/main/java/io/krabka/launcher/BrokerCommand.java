package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.value;

import io.krabka.kernel.broker.Broker;
import io.krabka.kernel.broker.BrokerConfig;
import io.krabka.kernel.broker.BrokerConfigException;
import io.krabka.kernel.broker.Endpoint;
import io.krabka.kernel.broker.KrabkaServices;
import io.krabka.kernel.broker.ServerProperties;
import io.krabka.kernel.broker.StandaloneFormat;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.format.FormatResult;
import io.krabka.kernel.format.FormattedDirectory;
import io.krabka.kernel.format.Formatter;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code krabka broker}: runs a single-node broker (its own controller) until SIGTERM or SIGINT, then shuts it down
 * cleanly and exits 0. Its settings are Kafka's {@code server.properties} keys, layered: Krabka's defaults (a
 * loopback listener, {@code ./krabka-data}), then {@code --config}, then the flags, then each {@code --override}.
 */
final class BrokerCommand implements Command {
    static final String DEFAULT_LOG_DIR = "./krabka-data";
    static final String DEFAULT_LISTEN_ADDR = "127.0.0.1:9092";
    static final int DEFAULT_CONTROLLER_PORT = 9093;
    static final String DEFAULT_NODE_ID = "1";
    static final String DEFAULT_PROCESS_ROLES = "controller,broker";
    private static final String LOG_FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";

    private final Formatter formatter;

    BrokerCommand() {
        this(new Formatter(Clock.systemUTC()));
    }

    BrokerCommand(Formatter formatter) {
        this.formatter = formatter;
    }

    @Override
    public String name() {
        return "broker";
    }

    @Override
    public String summary() {
        return "Run a single-node broker (its own controller) until SIGTERM or SIGINT";
    }

    @Override
    public Options options() {
        return new Options()
                .addOption(Option.builder()
                        .longOpt("log-dir")
                        .hasArg()
                        .argName("DIR")
                        .desc("A log directory (log.dirs; repeatable, or comma-separated; default " + DEFAULT_LOG_DIR
                                + ")")
                        .get())
                .addOption(value(
                        "listen-addr", "HOST:PORT", "The broker's listener (default " + DEFAULT_LISTEN_ADDR + ")"))
                .addOption(value(
                        "advertised-listener",
                        "HOST:PORT",
                        "The address clients are told to connect to (default: the listener's)"))
                .addOption(value(
                        "controller-listen-addr",
                        "HOST:PORT",
                        "The controller's listener (default: the listener's host, port " + DEFAULT_CONTROLLER_PORT
                                + ")"))
                .addOption(value(
                        "process-roles", "ROLES", "process.roles: controller,broker, the only roles served (default)"))
                .addOption(value(
                        "node-id",
                        "N",
                        "node.id: the node the log directories were formatted for (default " + DEFAULT_NODE_ID + ")"))
                .addOption(value(
                        "health-listen-addr",
                        "HOST:PORT",
                        "Where /healthz and /readyz answer over HTTP; none disables them (default 127.0.0.1:9405)"))
                .addOption(value("config", "FILE", "A server.properties file with Kafka's keys"))
                .addOption(Option.builder()
                        .longOpt("override")
                        .hasArg()
                        .argName("KEY=VALUE")
                        .desc("A setting over every other (repeatable)")
                        .get())
                .addOption(Option.builder()
                        .longOpt("format-if-needed")
                        .desc(
                                "Format the log directories that are not, as krabka format --standalone would; a first start formats a new cluster")
                        .get());
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        if (System.getProperty(LOG_FORMAT_PROPERTY) == null) {
            System.setProperty(LOG_FORMAT_PROPERTY, "[%1$tF %1$tT,%1$tL] %4$s %5$s (%3$s)%6$s%n");
        }
        BrokerConfig config = config(line);
        if (line.hasOption("format-if-needed")) {
            formatIfNeeded(config, console);
        }
        // SIGTERM and SIGINT stop the broker, and this returns 0 for a clean shutdown; one that comes while it
        // starts stops it as soon as it has started. The hook covers every other way the JVM may end (SIGHUP, an
        // exit elsewhere): the broker still shuts down cleanly.
        AtomicBoolean stopRequested = new AtomicBoolean();
        AtomicReference<Broker> running = new AtomicReference<>();
        Runnable restoreSignals = StopSignals.onStop(() -> {
            stopRequested.set(true);
            Optional.ofNullable(running.get()).ifPresent(Broker::close);
        });
        Broker broker;
        try {
            broker = start(config);
        } catch (CommandException e) {
            restoreSignals.run();
            throw e;
        }
        running.set(broker);
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("krabka-shutdown").unstarted(broker::close));
        if (stopRequested.get()) {
            broker.close();
        }
        try {
            broker.awaitShutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            broker.close();
        }
        if (broker.logDirFailure().isPresent()) {
            return ExitCode.LOG_DIRS_FAILED;
        }
        return broker.stoppedCleanly() ? ExitCode.OK : ExitCode.FAILURE;
    }

    private static Broker start(BrokerConfig config) throws CommandException {
        try {
            return Broker.start(config, new KrabkaServices());
        } catch (IOException | RuntimeException e) {
            // A refused log directory, a plugin the settings select that is unknown or refuses its settings (the
            // message names the key), a port in use.
            throw CommandException.of(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException(ExitCode.FAILURE, "interrupted while starting", e);
        }
    }

    /** The settings, layered: Krabka's defaults, then --config, then the flags, then each --override. */
    static BrokerConfig config(CommandLine line) throws CommandException {
        try {
            Map<String, String> file = Map.of();
            if (line.hasOption("config")) {
                Path path = Path.of(line.getOptionValue("config"));
                try {
                    file = ServerProperties.read(path);
                } catch (NoSuchFileException e) {
                    throw new CommandException(ExitCode.USAGE, "--config " + path + ": no such file", e);
                } catch (IOException e) {
                    throw new CommandException(
                            ExitCode.USAGE, "--config " + path + " cannot be read: " + e.getMessage(), e);
                }
            }
            Map<String, String> overrides = new LinkedHashMap<>();
            for (String override :
                    Optional.ofNullable(line.getOptionValues("override")).orElse(new String[0])) {
                Map.Entry<String, String> entry = ServerProperties.parseOverride(override);
                overrides.put(entry.getKey(), entry.getValue());
            }
            Map<String, String> layered = ServerProperties.layered(List.of(defaults(), file, flags(line), overrides));
            return BrokerConfig.fromProps(withSingleNodeMetadataTopic(layered));
        } catch (BrokerConfigException e) {
            throw CommandException.of(e);
        }
    }

    // Krabka's defaults, below everything given: one node on loopback, data in the working directory, tiered
    // storage on, with the local tier beside the data (topics still choose it with remote.storage.enable).
    private static Map<String, String> defaults() {
        return Map.of(
                "node.id",
                DEFAULT_NODE_ID,
                "process.roles",
                DEFAULT_PROCESS_ROLES,
                "log.dirs",
                DEFAULT_LOG_DIR,
                "listeners",
                listeners(Optional.empty(), Optional.empty()),
                "controller.listener.names",
                "CONTROLLER",
                "remote.log.storage.system.enable",
                "true",
                "remote.log.storage.manager.class.name",
                "local");
    }

    // On Krabka's default metadata manager (topic), a node alone creates __remote_log_metadata with one replica
    // rather than Kafka's three, which one node cannot hold; a chosen manager gets only the settings given.
    private static Map<String, String> withSingleNodeMetadataTopic(Map<String, String> layered) {
        String replicationFactor = "rlmm.config.remote.log.metadata.topic.replication.factor";
        if (layered.containsKey("remote.log.metadata.manager.class.name") || layered.containsKey(replicationFactor)) {
            return layered;
        }
        Map<String, String> settings = new LinkedHashMap<>(layered);
        settings.put(replicationFactor, "1");
        return settings;
    }

    private static Map<String, String> flags(CommandLine line) {
        Map<String, String> flags = new LinkedHashMap<>();
        if (line.hasOption("log-dir")) {
            flags.put("log.dirs", String.join(",", Arrays.asList(line.getOptionValues("log-dir"))));
        }
        if (line.hasOption("listen-addr") || line.hasOption("controller-listen-addr")) {
            flags.put(
                    "listeners",
                    listeners(
                            Optional.ofNullable(line.getOptionValue("listen-addr")),
                            Optional.ofNullable(line.getOptionValue("controller-listen-addr"))));
            flags.put("controller.listener.names", "CONTROLLER");
        }
        if (line.hasOption("advertised-listener")) {
            flags.put(
                    "advertised.listeners",
                    Endpoint.parseHostPort(
                                    "--advertised-listener", "PLAINTEXT", line.getOptionValue("advertised-listener"))
                            .toString());
        }
        copy(line, "process-roles", "process.roles", flags);
        copy(line, "node-id", "node.id", flags);
        copy(line, "health-listen-addr", "krabka.health.listen.addr", flags);
        return flags;
    }

    // The controller's listener defaults to the broker listener's host on port 9093, as the original Krabka's.
    private static String listeners(Optional<String> listenAddr, Optional<String> controllerAddr) {
        Endpoint broker = Endpoint.parseHostPort("--listen-addr", "PLAINTEXT", listenAddr.orElse(DEFAULT_LISTEN_ADDR));
        Endpoint controller = controllerAddr
                .map(addr -> Endpoint.parseHostPort("--controller-listen-addr", "CONTROLLER", addr))
                .orElse(new Endpoint("CONTROLLER", broker.host(), DEFAULT_CONTROLLER_PORT));
        return broker + "," + controller;
    }

    private static void copy(CommandLine line, String flag, String key, Map<String, String> flags) {
        if (line.hasOption(flag)) {
            flags.put(key, line.getOptionValue(flag));
        }
    }

    private void formatIfNeeded(BrokerConfig config, Console console) throws CommandException {
        Optional<FormatResult> result;
        try {
            result = StandaloneFormat.formatIfNeeded(config, formatter);
        } catch (BrokerConfigException | FormatException e) {
            throw CommandException.of(e);
        }
        result.ifPresent(formatted -> {
            for (FormattedDirectory dir : formatted.formatted()) {
                console.out()
                        .println("Formatting " + dir.type().description() + " " + dir.path() + " with metadata.version "
                                + formatted.features().metadataVersion() + ".");
            }
        });
    }
}
