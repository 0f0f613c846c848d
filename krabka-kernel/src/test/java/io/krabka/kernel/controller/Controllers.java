package io.krabka.kernel.controller;

import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.metadata.MetadataRecord;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Controllers for the tests: a directory formatted as {@code krabka format} does, and a controller on it. */
public final class Controllers implements AutoCloseable {

    /** The node id of the tests' cluster. */
    public static final int NODE_ID = 1;
    /** The directory id the tests format with. */
    public static final Uuid DIRECTORY_ID = Uuid.fromString("fM8RA2ptTOqMCj6wFHNEQw");

    private final Path dir;
    private final Map<String, String> staticBrokerConfigs;
    private final boolean remoteLogStorageSystemEnabled;
    private final KafkaScheduler scheduler = new KafkaScheduler(1, "controller-test-");
    private QuorumController controller;

    private Controllers(Path dir, Map<String, String> staticBrokerConfigs, boolean remoteLogStorageSystemEnabled) {
        this.dir = dir;
        this.staticBrokerConfigs = staticBrokerConfigs;
        this.remoteLogStorageSystemEnabled = remoteLogStorageSystemEnabled;
    }

    /** Formats {@code dir} (Kafka 4.4's default features) and starts a controller on it. */
    public static Controllers formatAndStart(Path dir, Map<String, String> staticBrokerConfigs)
            throws IOException, FormatException {
        return formatAndStart(dir, staticBrokerConfigs, false);
    }

    /**
     * Formats {@code dir} and starts a controller on it that lets topics tier when
     * {@code remoteLogStorageSystemEnabled} ({@code remote.log.storage.system.enable}).
     */
    public static Controllers formatAndStart(
            Path dir, Map<String, String> staticBrokerConfigs, boolean remoteLogStorageSystemEnabled)
            throws IOException, FormatException {
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(dir),
                        dir,
                        "kUtTVxF2S8GcqgGq3ymNbA",
                        NODE_ID,
                        Optional.of(DIRECTORY_ID),
                        Optional.empty(),
                        List.of(),
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        Controllers controllers = new Controllers(dir, staticBrokerConfigs, remoteLogStorageSystemEnabled);
        controllers.restart();
        return controllers;
    }

    /** Starts a controller on {@code dir}, formatted by {@link #formatAndStart} before. */
    public static Controllers start(Path dir, Map<String, String> staticBrokerConfigs) throws IOException {
        Controllers controllers = new Controllers(dir, staticBrokerConfigs, false);
        controllers.restart();
        return controllers;
    }

    /**
     * Appends {@code records} (each at its newest version) to the metadata log of {@code dir} as one batch, while no
     * controller runs on it: what a Kafka controller that had the directory before would have left there, such as
     * client quotas, which Krabka's own operations never write.
     */
    public static void appendToMetadataLog(Path dir, List<MetadataRecord> records) throws IOException {
        KafkaScheduler scheduler = new KafkaScheduler(1, "metadata-append-");
        try (MetadataLog log = MetadataLog.open(dir, scheduler, Clock.systemUTC(), new LogDirFailureChannel())) {
            log.append(records.stream()
                    .map(record -> new MetadataRecordAndVersion(record, record.highestSupportedVersion()))
                    .toList());
            log.flush();
        } finally {
            shutdown(scheduler);
        }
    }

    /** The settings of the tests' controller. */
    public ControllerConfig config() {
        return new ControllerConfig(
                NODE_ID, dir, DIRECTORY_ID, 1, (short) 1, remoteLogStorageSystemEnabled, staticBrokerConfigs);
    }

    /** Closes the running controller, if any, and starts a new one on the same directory. */
    public QuorumController restart() throws IOException {
        if (controller != null) {
            controller.close();
        }
        controller = QuorumController.start(config(), scheduler, Clock.systemUTC(), new LogDirFailureChannel());
        return controller;
    }

    /** The running controller. */
    public QuorumController controller() {
        return controller;
    }

    /** The log directory. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() throws IOException {
        try {
            controller.close();
        } finally {
            shutdown(scheduler);
        }
    }

    private static void shutdown(KafkaScheduler scheduler) {
        try {
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
