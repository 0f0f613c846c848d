package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.flag;
import static io.krabka.launcher.CommandOptions.repeatable;
import static io.krabka.launcher.CommandOptions.value;
import static io.krabka.launcher.CommandOptions.values;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.kernel.restore.ArchiveRestore;
import io.krabka.kernel.restore.RestoreException;
import io.krabka.kernel.restore.RestoreRequest;
import io.krabka.kernel.restore.RestoreTarget;
import io.krabka.kernel.restore.SegmentAuthority;
import io.krabka.kernel.restore.authenticate.ArchiveAuthenticator;
import io.krabka.kernel.restore.bound.RestoreBounds;
import io.krabka.kernel.restore.metadata.ClusterMetadataSnapshot;
import io.krabka.kernel.restore.metadata.RemoteLogMetadataSnapshot;
import io.krabka.kernel.restore.report.RestoreJsonReport;
import io.krabka.kernel.restore.report.RestoreReport;
import io.krabka.kernel.restore.report.RestoreTextReport;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code krabka restore}: writes a bootable log directory for one node from an archive of the remote tier, while no
 * broker runs, through the kernel's {@link ArchiveRestore}. The checks run cheapest first and before anything is
 * touched: the flags, then the bound against the topic selection, then the target directory (before the archive is
 * opened), then the store; a failure is one line and its exit code.
 */
final class RestoreCommand implements Command {
    /** The most partitions restored at once by default: more rarely helps one disk or one bucket. */
    static final int MAX_DEFAULT_PARALLELISM = 8;

    private final Function<Set<String>, PluginRegistry> plugins;
    private final ArchiveRestore restore;

    /**
     * Restores through the object-store plugins of the distribution named by {@code krabka.home}, loading only the
     * plugins it needs when their folders bear their names.
     */
    RestoreCommand() {
        this(PluginDiscovery::discover, new ArchiveRestore(Clock.systemUTC()));
    }

    /** @param plugins the registry holding at least the plugins of the names given */
    RestoreCommand(Function<Set<String>, PluginRegistry> plugins, ArchiveRestore restore) {
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.restore = Objects.requireNonNull(restore, "restore");
    }

    @Override
    public String name() {
        return "restore";
    }

    @Override
    public String summary() {
        return "Restore a node's log directory from an archive of the remote tier, to a point in time, offline";
    }

    @Override
    public String helpFooter() {
        return String.join(
                System.lineSeparator(),
                "Flag groups:",
                "  Archive: exactly one of --archive-local, --archive-s3-bucket, --archive-gcs-bucket; that backend's "
                        + "--archive-s3-* or --archive-gcs-* refinements only; --archive-prefix.",
                "  Target: --log-dir (empty or absent), --node-id, --cluster-id; at most one of --standalone (the "
                        + "default), --initial-controllers, --no-initial-controllers; --controller-listener.",
                "  Selection and bounds: --topic, --to-offset, --to-timestamp, --exclude-offset, --exclude-key, "
                        + "--exclude-header, --exclude-producer-id (exclusions OR-combined, regexes over raw bytes).",
                "  Metadata: --rlmm-snapshot, --metadata-snapshot.",
                "  Authentication: --worm-key-id with --worm-public-key, --worm-expect-head.",
                "  Behaviour: --dry-run, --continue-on-corrupt, --report, --parallelism.",
                "Exit codes: 0 restored; 2 bad arguments (nothing read); 3 the log directory is not empty (left "
                        + "untouched, the archive not opened); 4 the archive cannot be read or is empty; 5 integrity: "
                        + "a segment fails its CRC or framing, is truncated or torn, fails authentication, or "
                        + "disagrees with --rlmm-snapshot; 6 writing the log directory failed.");
    }

    @Override
    public Options options() {
        Options options = RestoreArchiveFlags.addTo(new Options())
                .addOption(Option.builder()
                        .longOpt("log-dir")
                        .hasArg()
                        .argName("DIR")
                        .desc("Target: the log directory to write, also the metadata log directory; empty or absent")
                        .required()
                        .get())
                .addOption(Option.builder()
                        .longOpt("node-id")
                        .hasArg()
                        .argName("N")
                        .desc("Target: this node's id, the leader and sole replica of every restored partition")
                        .required()
                        .get())
                .addOption(
                        value(
                                "cluster-id",
                                "ID",
                                "Target: the cluster id, 22 characters of base64 or a hyphenated UUID (default: a new one, printed)"))
                .addOptionGroup(FormatCommand.quorumOptions())
                .addOption(value(
                        "controller-listener",
                        "HOST:PORT",
                        "Target: where this node's controller listens, with --standalone (default: "
                                + FormatCommand.DEFAULT_CONTROLLER_LISTENER + ")"))
                .addOption(repeatable(
                        "topic", "T", "Selection: restore this topic (default: every topic in the archive)"));
        return RestoreBoundFlags.addTo(options)
                .addOption(
                        value(
                                "rlmm-snapshot",
                                "PATH",
                                "Metadata: the old cluster's inmemory remote log metadata snapshot, to leave out deleted segments"))
                .addOption(
                        value(
                                "metadata-snapshot",
                                "PATH",
                                "Metadata: a KRaft snapshot of the old cluster (<offset>-<epoch>.checkpoint), for configs, ACLs, quotas"))
                .addOption(repeatable(
                        "worm-key-id",
                        "ID",
                        "Authentication: a trusted signing key's id, paired by position with --worm-public-key"))
                .addOption(repeatable(
                        "worm-public-key", "PATH", "Authentication: a trusted Ed25519 public key, 32 raw bytes or PEM"))
                .addOption(
                        repeatable(
                                "worm-expect-head",
                                "DIR=HEX",
                                "Authentication: a partition directory's chain tip recorded elsewhere, which the archive's must equal"))
                .addOption(
                        flag("dry-run", "Behaviour: read and verify everything, but write only the cluster metadata"))
                .addOption(flag(
                        "continue-on-corrupt",
                        "Behaviour: skip a corrupt segment and the rest of its partition rather than stop"))
                .addOption(value(
                        "report", "text|json", "Behaviour: the report's format on standard output (default: text)"))
                .addOption(value(
                        "parallelism",
                        "N",
                        "Behaviour: partitions restored at once (default: the processors, at most "
                                + MAX_DEFAULT_PARALLELISM + ")"));
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        ArchiveSource source = RestoreArchiveFlags.source(line);
        ArchiveLayout layout = RestoreArchiveFlags.layout(line);
        boolean json = json(line);
        int parallelism = parallelism(line);
        int nodeId = FormatCommand.nodeId(line.getOptionValue("node-id"));
        boolean generated = !line.hasOption("cluster-id");
        String clusterId = generated
                ? ClusterId.random()
                : FormatCommand.parse(() -> ClusterId.parse(line.getOptionValue("cluster-id")));
        RestoreTarget target = new RestoreTarget(
                Path.of(line.getOptionValue("log-dir")),
                clusterId,
                nodeId,
                FormatCommand.quorum(line),
                FormatCommand.DEFAULT_CONTROLLER_LISTENER_NAME);
        TrustedKeys keys = TrustedKeyFlags.read(line, "worm-key-id", "worm-public-key");
        Map<String, String> expectedHeads = expectedHeads(line);
        if (!expectedHeads.isEmpty() && keys.keyIds().isEmpty()) {
            throw CommandException.usage(
                    "--worm-expect-head needs --worm-key-id and --worm-public-key: chain heads are "
                            + "checked only by an authenticated restore");
        }
        Set<String> topics = Set.copyOf(values(line, "topic"));
        RestoreReport report;
        try {
            RestoreBounds bounds = RestoreBounds.of(RestoreBoundFlags.arguments(line), topics);
            ArchiveRestore.checkTarget(target.logDir());
            PluginRegistry registry = plugins.apply(
                    line.hasOption("rlmm-snapshot")
                            ? Set.of(source.plugin(), RemoteLogMetadataSnapshot.PLUGIN)
                            : Set.of(source.plugin()));
            Optional<ClusterMetadataSnapshot> clusterMetadata =
                    path(line, "metadata-snapshot").isEmpty()
                            ? Optional.empty()
                            : Optional.of(ClusterMetadataSnapshot.read(
                                    path(line, "metadata-snapshot").get()));
            RemoteLogMetadataSnapshot remoteLogMetadata =
                    path(line, "rlmm-snapshot").isEmpty()
                            ? null
                            : RemoteLogMetadataSnapshot.load(
                                    registry, path(line, "rlmm-snapshot").get());
            try (remoteLogMetadata;
                    ObjectStore store = source.open(registry);
                    RestoreTerminalProgress progress = RestoreTerminalProgress.on(console.err())) {
                SegmentAuthority authority = keys.keyIds().isEmpty()
                        ? SegmentAuthority.UNAUTHENTICATED
                        : new ArchiveAuthenticator(store, layout, keys, expectedHeads);
                if (generated) {
                    console.err().println("krabka restore: generated cluster id " + clusterId);
                }
                report = restore.restore(
                        store,
                        new RestoreRequest(
                                layout,
                                target,
                                topics,
                                bounds,
                                authority,
                                Optional.ofNullable(remoteLogMetadata),
                                clusterMetadata,
                                line.hasOption("dry-run"),
                                line.hasOption("continue-on-corrupt"),
                                parallelism),
                        progress);
            } catch (IOException e) {
                throw source.unreadable("closing the store failed: " + e.getMessage(), e);
            }
        } catch (RestoreException e) {
            throw CommandException.of(e);
        }
        if (json) {
            console.out().println(new String(RestoreJsonReport.write(report), StandardCharsets.UTF_8));
        } else {
            RestoreTextReport.lines(report).forEach(console.out()::println);
        }
        return ExitCode.OK;
    }

    private static boolean json(CommandLine line) throws CommandException {
        String report = line.getOptionValue("report", "text");
        if (!report.equals("text") && !report.equals("json")) {
            throw CommandException.usage("--report is text or json, not '" + report + "'");
        }
        return report.equals("json");
    }

    private static int parallelism(CommandLine line) throws CommandException {
        if (!line.hasOption("parallelism")) {
            return Math.min(Runtime.getRuntime().availableProcessors(), MAX_DEFAULT_PARALLELISM);
        }
        String text = line.getOptionValue("parallelism");
        try {
            int parallelism = Integer.parseInt(text);
            if (parallelism >= 1) {
                return parallelism;
            }
        } catch (NumberFormatException e) {
            // Refused below, with the range.
        }
        throw CommandException.usage("--parallelism is a number of partitions, 1 or more, not '" + text + "'");
    }

    /** {@code --worm-expect-head DIR=HEX} values by partition directory, the heads in lowercase hex. */
    private static Map<String, String> expectedHeads(CommandLine line) throws CommandException {
        Map<String, String> heads = new TreeMap<>();
        for (String value : values(line, "worm-expect-head")) {
            int equals = value.lastIndexOf('=');
            String directory = equals < 0 ? "" : value.substring(0, equals).strip();
            if (directory.isEmpty() || directory.contains("/")) {
                throw CommandException.usage("--worm-expect-head '" + value + "' is not PARTITION_DIR=HEX, the "
                        + "directory a name like orders-0-<topic id>");
            }
            ChainHead head;
            try {
                head = ChainHead.fromHex(value.substring(equals + 1).strip());
            } catch (IllegalArgumentException e) {
                throw CommandException.usage("--worm-expect-head '" + value + "': the head must be 64 hex digits");
            }
            if (heads.put(directory, head.hex()) != null) {
                throw CommandException.usage("--worm-expect-head is given twice for " + directory);
            }
        }
        return heads;
    }

    private static Optional<Path> path(CommandLine line, String option) {
        return Optional.ofNullable(line.getOptionValue(option)).map(Path::of);
    }
}
