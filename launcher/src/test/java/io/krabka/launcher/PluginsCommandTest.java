package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.plugin.BrokenPluginFolder;
import io.krabka.kernel.plugin.PluginDescriptor;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginIsolation;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.PluginKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginsCommandTest {
    private static final Path LOCAL = Path.of("/opt/krabka/plugins/local");
    private static final Path GCS = Path.of("/opt/krabka/plugins/gcs");
    private static final Path TOPIC = Path.of("/opt/krabka/plugins/topic");
    private static final List<ConfigKey> LOCAL_SETTINGS = List.of(
            ConfigKey.required("dir", ConfigType.STRING, "The directory segments are copied to."),
            ConfigKey.optional("delete.on.close", ConfigType.BOOLEAN, false, "Whether close() deletes them."),
            ConfigKey.optional("secret", ConfigType.PASSWORD, "s3cr3t", "A password."),
            ConfigKey.optional("prefix", ConfigType.STRING, "", "A key prefix."));
    private static final List<PluginDescriptor> PLUGINS = List.of(
            new PluginDescriptor(
                    "local",
                    PluginKind.REMOTE_STORAGE_MANAGER,
                    "0.1.0-SNAPSHOT",
                    "1.0",
                    "io.krabka.plugin.rsm.local",
                    Optional.of(LOCAL),
                    PluginIsolation.MODULE_LAYER,
                    List.of(),
                    "Keeps remote segments in a local directory.",
                    LOCAL_SETTINGS),
            new PluginDescriptor(
                    "gcs",
                    PluginKind.REMOTE_STORAGE_MANAGER,
                    "0.3.1",
                    "1.0",
                    "plugin-rsm-gcs-0.3.1.jar",
                    Optional.of(GCS),
                    PluginIsolation.CLASS_LOADER,
                    List.of(),
                    "Google Cloud Storage.",
                    List.of()),
            new PluginDescriptor(
                    "inmemory",
                    PluginKind.REMOTE_LOG_METADATA_MANAGER,
                    "0.1.0-SNAPSHOT",
                    "1.0",
                    "io.krabka.plugin.rlmm.inmemory",
                    Optional.empty(),
                    PluginIsolation.BOOT,
                    List.of(),
                    "In memory.",
                    List.of()),
            new PluginDescriptor(
                    "topic",
                    PluginKind.REMOTE_LOG_METADATA_MANAGER,
                    "0.1.0-SNAPSHOT",
                    "1.2",
                    "io.krabka.plugin.rlmm.topic",
                    Optional.of(TOPIC),
                    PluginIsolation.MODULE_LAYER,
                    List.of("org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager"),
                    "In __remote_log_metadata.",
                    List.of()));
    private static final BrokenPluginFolder BROKEN = new BrokenPluginFolder(
            Path.of("/opt/krabka/plugins/broken"),
            "plugin folder /opt/krabka/plugins/broken has no plugin provider: it holds no jar");
    private static final PluginsCommand.Listing LISTING = new PluginsCommand.Listing(PLUGINS, List.of());

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Supplier<PluginsCommand.Listing> discovery, String... args) {
        Console console = new Console(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Krabka(List.of(new PluginsCommand(discovery))).run(args, console);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listsThePluginsAsAnAlignedTable() {
        assertEquals(ExitCode.OK, run(() -> LISTING, "plugins"));

        assertEquals("""
                NAME      KIND                         VERSION         SPI  MODULE                          ISOLATION     SOURCE                     ALIASES
                local     REMOTE_STORAGE_MANAGER       0.1.0-SNAPSHOT  1.0  io.krabka.plugin.rsm.local      module-layer  /opt/krabka/plugins/local
                gcs       REMOTE_STORAGE_MANAGER       0.3.1           1.0  plugin-rsm-gcs-0.3.1.jar        class-loader  /opt/krabka/plugins/gcs
                inmemory  REMOTE_LOG_METADATA_MANAGER  0.1.0-SNAPSHOT  1.0  io.krabka.plugin.rlmm.inmemory  boot          boot
                topic     REMOTE_LOG_METADATA_MANAGER  0.1.0-SNAPSHOT  1.2  io.krabka.plugin.rlmm.topic     module-layer  /opt/krabka/plugins/topic  org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager
                """, out());
        assertEquals("", err());
    }

    @Test
    void jsonHasOneObjectPerPluginWithTheDocumentedFields() {
        assertEquals(ExitCode.OK, run(() -> LISTING, "plugins", "--json"));

        assertEquals(
                "{\"plugins\":["
                        + "{\"name\":\"local\",\"kind\":\"REMOTE_STORAGE_MANAGER\",\"version\":\"0.1.0-SNAPSHOT\",\"spiVersion\":\"1.0\","
                        + "\"module\":\"io.krabka.plugin.rsm.local\",\"source\":\"/opt/krabka/plugins/local\",\"isolation\":\"module-layer\",\"aliases\":[],"
                        + "\"description\":\"Keeps remote segments in a local directory.\",\"settings\":["
                        + "{\"name\":\"dir\",\"type\":\"STRING\",\"required\":true,\"default\":null,\"documentation\":\"The directory segments are copied to.\"},"
                        + "{\"name\":\"delete.on.close\",\"type\":\"BOOLEAN\",\"required\":false,\"default\":\"false\",\"documentation\":\"Whether close() deletes them.\"},"
                        + "{\"name\":\"secret\",\"type\":\"PASSWORD\",\"required\":false,\"default\":\"(hidden)\",\"documentation\":\"A password.\"},"
                        + "{\"name\":\"prefix\",\"type\":\"STRING\",\"required\":false,\"default\":\"\",\"documentation\":\"A key prefix.\"}]},"
                        + "{\"name\":\"gcs\",\"kind\":\"REMOTE_STORAGE_MANAGER\",\"version\":\"0.3.1\",\"spiVersion\":\"1.0\","
                        + "\"module\":\"plugin-rsm-gcs-0.3.1.jar\",\"source\":\"/opt/krabka/plugins/gcs\",\"isolation\":\"class-loader\",\"aliases\":[],"
                        + "\"description\":\"Google Cloud Storage.\",\"settings\":[]},"
                        + "{\"name\":\"inmemory\",\"kind\":\"REMOTE_LOG_METADATA_MANAGER\",\"version\":\"0.1.0-SNAPSHOT\",\"spiVersion\":\"1.0\","
                        + "\"module\":\"io.krabka.plugin.rlmm.inmemory\",\"source\":\"boot\",\"isolation\":\"boot\",\"aliases\":[],"
                        + "\"description\":\"In memory.\",\"settings\":[]},"
                        + "{\"name\":\"topic\",\"kind\":\"REMOTE_LOG_METADATA_MANAGER\",\"version\":\"0.1.0-SNAPSHOT\",\"spiVersion\":\"1.2\","
                        + "\"module\":\"io.krabka.plugin.rlmm.topic\",\"source\":\"/opt/krabka/plugins/topic\",\"isolation\":\"module-layer\","
                        + "\"aliases\":[\"org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager\"],"
                        + "\"description\":\"In __remote_log_metadata.\",\"settings\":[]}"
                        + "],\"broken\":[]}\n",
                out());
    }

    @Test
    void aDistributionWithoutPluginsListsNone() throws IOException {
        Path plugins = Files.createDirectories(root.resolve("plugins"));

        assertEquals(
                ExitCode.OK,
                run(() -> PluginsCommand.Listing.of(PluginDiscovery.discover(plugins)), "plugins", "--json"));
        assertEquals("{\"plugins\":[],\"broken\":[]}\n", out());

        assertEquals(ExitCode.OK, run(() -> PluginsCommand.Listing.of(PluginDiscovery.discover(plugins)), "plugins"));
        assertEquals("{\"plugins\":[],\"broken\":[]}\nno plugins\n", out());
    }

    @Test
    void aBrokenFolderIsListedWithItsReasonAfterThePlugins() throws IOException {
        Path empty = Files.createDirectories(root.resolve("plugins").resolve("empty"));
        String reason = "plugin folder " + empty.toAbsolutePath() + " has no plugin provider: it holds no jar";

        assertEquals(
                ExitCode.OK,
                run(() -> PluginsCommand.Listing.of(PluginDiscovery.discover(root.resolve("plugins"))), "plugins"));
        assertEquals("no plugins\nskipped: " + reason + "\n", out());
        assertEquals("", err());

        out.reset();
        assertEquals(
                ExitCode.OK,
                run(
                        () -> PluginsCommand.Listing.of(PluginDiscovery.discover(root.resolve("plugins"))),
                        "plugins",
                        "--json"));
        assertEquals(
                "{\"plugins\":[],\"broken\":[{\"folder\":\"" + empty.toAbsolutePath() + "\",\"reason\":\"" + reason
                        + "\"}]}\n",
                out());
    }

    @Test
    void oneNamedPluginIsShownInFullWithItsSettings() {
        assertEquals(ExitCode.OK, run(() -> LISTING, "plugins", "--name", "local"));

        assertEquals("""
                local (REMOTE_STORAGE_MANAGER 0.1.0-SNAPSHOT, SPI 1.0): Keeps remote segments in a local directory.
                module io.krabka.plugin.rsm.local, module-layer, from /opt/krabka/plugins/local
                SETTING          TYPE      DEFAULT     DOCUMENTATION
                dir              STRING    (required)  The directory segments are copied to.
                delete.on.close  BOOLEAN   false       Whether close() deletes them.
                secret           PASSWORD  (hidden)    A password.
                prefix           STRING    ""          A key prefix.
                """, out());
    }

    @Test
    void aPluginIsFoundByItsAlias() {
        assertEquals(
                ExitCode.OK,
                run(
                        () -> LISTING,
                        "plugins",
                        "--name",
                        "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager"));

        assertEquals("""
                topic (REMOTE_LOG_METADATA_MANAGER 0.1.0-SNAPSHOT, SPI 1.2): In __remote_log_metadata.
                module io.krabka.plugin.rlmm.topic, module-layer, from /opt/krabka/plugins/topic
                aliases: org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager
                no settings
                """, out());
    }

    @Test
    void anUnknownNameExitsOneListingTheKnownOnesAndABrokenFolderOfThatNameGivesItsReason() {
        PluginsCommand.Listing withBroken = new PluginsCommand.Listing(PLUGINS, List.of(BROKEN));

        assertEquals(ExitCode.FAILURE, run(() -> withBroken, "plugins", "--name", "nope"));
        assertEquals("krabka plugins: no plugin is named 'nope'; known: local, gcs, inmemory, topic\n", err());

        err.reset();
        assertEquals(ExitCode.FAILURE, run(() -> withBroken, "plugins", "--name", "broken"));
        assertEquals("krabka plugins: " + BROKEN.reason() + "\n", err());
        assertEquals("", out());
    }

    @Test
    void aDiscoveryErrorIsOneLineOnStandardErrorAndExitsTwoAsTheBrokerDoes() {
        int code = run(() -> PluginsCommand.Listing.of(PluginDiscovery.discover(root.resolve("nowhere"))), "plugins");

        assertEquals(ExitCode.USAGE, code);
        assertEquals(
                "krabka plugins: the plugins directory " + root.resolve("nowhere")
                        + " does not exist or is not a directory\n",
                err());
        assertEquals("", out());
    }

    @Test
    void anUnknownFlagIsAUsageError() {
        assertEquals(ExitCode.USAGE, run(() -> LISTING, "plugins", "--jsn"));

        assertEquals("krabka plugins: Unrecognized option: --jsn\n", err());
        assertEquals("", out());
    }

    @Test
    void anArgumentIsAUsageError() {
        assertEquals(ExitCode.USAGE, run(() -> LISTING, "plugins", "local"));

        assertEquals("krabka plugins: unexpected argument 'local'\n", err());
        assertEquals("", out());
    }

    @Test
    void theStandardCommandsIncludePluginsWhichNeedsKrabkaHome() {
        String before = System.getProperty(PluginDiscovery.HOME_PROPERTY);
        System.clearProperty(PluginDiscovery.HOME_PROPERTY);
        try {
            Console console = new Console(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(ExitCode.OK, Krabka.standard().run(new String[] {"plugins", "--help"}, console));
            assertTrue(out().contains("--json"), out());

            assertEquals(ExitCode.USAGE, Krabka.standard().run(new String[] {"plugins"}, console));
            assertEquals(
                    "krabka plugins: the system property krabka.home is not set; it names the distribution whose"
                            + " plugins/ folder holds the plugins\n",
                    err());
        } finally {
            if (before != null) {
                System.setProperty(PluginDiscovery.HOME_PROPERTY, before);
            }
        }
    }
}
