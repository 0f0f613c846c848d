package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.flag;
import static io.krabka.launcher.CommandOptions.value;

import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.format.DirectoryId;
import io.krabka.kernel.format.DynamicVoters;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.format.FormatResult;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.FormattedDirectory;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.OptionGroup;
import org.apache.commons.cli.Options;

/**
 * {@code krabka format}: formats a node's log directories as Kafka 4.4's {@code kafka-storage format} does, from
 * flags rather than a {@code server.properties}.
 */
final class FormatCommand implements Command {
    /** The controller listener of {@code --standalone} when none is given: the broker's default. */
    static final String DEFAULT_CONTROLLER_LISTENER = "127.0.0.1:9093";

    static final String DEFAULT_CONTROLLER_LISTENER_NAME = "CONTROLLER";

    private final Formatter formatter;

    /** Formats with the system clock's time in the snapshot. */
    FormatCommand() {
        this(new Formatter(Clock.systemUTC()));
    }

    FormatCommand(Formatter formatter) {
        this.formatter = Objects.requireNonNull(formatter, "formatter");
    }

    @Override
    public String name() {
        return "format";
    }

    @Override
    public String summary() {
        return "Format log directories for a new node as Kafka's kafka-storage format does: meta.properties and the KRaft bootstrap snapshot";
    }

    @Override
    public Options options() {
        OptionGroup quorum = quorumOptions();
        quorum.setRequired(true);
        return new Options()
                .addOption(Option.builder()
                        .longOpt("log-dir")
                        .hasArg()
                        .argName("DIR")
                        .desc("A log directory to format (repeatable, or comma-separated)")
                        .required()
                        .get())
                .addOption(
                        value("metadata-log-dir", "DIR", "The metadata log directory (default: the first --log-dir)"))
                .addOption(value(
                        "cluster-id",
                        "ID",
                        "The cluster id: 22 characters of base64, or a hyphenated UUID (default: a new one, printed)"))
                .addOption(Option.builder()
                        .longOpt("node-id")
                        .hasArg()
                        .argName("N")
                        .desc("This node's id, 0 to 2147483647")
                        .required()
                        .get())
                .addOption(value(
                        "directory-id",
                        "ID",
                        "The metadata log directory's id (default: a new one; --initial-controllers gives a voter's)"))
                .addOption(value(
                        "release-version",
                        "V",
                        "The metadata.version to start at, such as 4.4-IV2 or 4.4 (default: 4.4-IV2)"))
                .addOption(Option.builder()
                        .longOpt("feature")
                        .hasArg()
                        .argName("NAME=LEVEL")
                        .desc("A feature's starting level, such as group.version=0 (repeatable)")
                        .get())
                .addOption(Option.builder()
                        .longOpt("add-scram")
                        .hasArg()
                        .argName("MECHANISM=[name=..,password=..]")
                        .desc("A SCRAM credential to bootstrap, as kafka-storage format takes it, such as "
                                + "'SCRAM-SHA-256=[name=alice,password=alice-secret]' (repeatable)")
                        .get())
                .addOption(Option.builder()
                        .longOpt("add-acl")
                        .hasArg()
                        .argName("principal=..,operation=..,...")
                        .desc("An ACL to bootstrap, such as 'principal=User:admin,operation=ALL,permission=ALLOW,"
                                + "resource-type=CLUSTER,resource-name=kafka-cluster' (repeatable; see "
                                + "docs/commands.md)")
                        .get())
                .addOptionGroup(quorum)
                .addOption(value(
                        "controller-listener",
                        "HOST:PORT",
                        "With --standalone: where this controller listens (default: " + DEFAULT_CONTROLLER_LISTENER
                                + ")"))
                .addOption(value(
                        "controller-listener-name",
                        "NAME",
                        "The controller listener's name (default: " + DEFAULT_CONTROLLER_LISTENER_NAME + ")"))
                .addOption(flag("ignore-formatted", "Skip directories formatted already rather than refuse them"));
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        List<Path> logDirs = Arrays.stream(line.getOptionValues("log-dir"))
                .flatMap(dirs -> Arrays.stream(dirs.split(",")))
                .filter(dir -> !dir.isEmpty())
                .map(Path::of)
                .toList();
        if (logDirs.isEmpty()) {
            throw CommandException.usage("--log-dir names no directory");
        }
        Path metadataLogDir = Optional.ofNullable(line.getOptionValue("metadata-log-dir"))
                .map(Path::of)
                .orElse(logDirs.getFirst());
        boolean generated = !line.hasOption("cluster-id");
        String clusterId =
                generated ? ClusterId.random() : parse(() -> ClusterId.parse(line.getOptionValue("cluster-id")));
        FormatSpec spec = new FormatSpec(
                logDirs,
                metadataLogDir,
                clusterId,
                nodeId(line.getOptionValue("node-id")),
                directoryId(line),
                Optional.ofNullable(line.getOptionValue("release-version")),
                Optional.ofNullable(line.getOptionValues("feature"))
                        .map(List::of)
                        .orElse(List.of()),
                quorum(line),
                listenerName(line),
                line.hasOption("ignore-formatted"),
                values(line, "add-scram"),
                values(line, "add-acl"));

        FormatResult result;
        try {
            result = formatter.format(spec);
        } catch (FormatException e) {
            throw CommandException.of(e);
        }
        if (generated) {
            console.out().println("Generated cluster id " + clusterId + ".");
        }
        result.skipped().forEach(dir -> console.out().println("Skipping " + dir + ": it is formatted already."));
        if (result.formatted().isEmpty()) {
            console.out().println("All of the log directories are already formatted.");
            return ExitCode.OK;
        }
        console.out()
                .println("Bootstrap features: "
                        + result.features().levels().entrySet().stream()
                                .map(level -> level.getKey() + "=" + level.getValue())
                                .collect(Collectors.joining(", "))
                        + ".");
        for (FormattedDirectory dir : result.formatted()) {
            console.out()
                    .println("Formatting " + dir.type().description() + " " + dir.path() + " with metadata.version "
                            + result.features().metadataVersion() + ".");
        }
        return ExitCode.OK;
    }

    /** The three ways a controller quorum starts (KIP-853), of which at most one may be given. */
    static OptionGroup quorumOptions() {
        return new OptionGroup()
                .addOption(flag("standalone", "This node is the quorum's only controller, at --controller-listener"))
                .addOption(value(
                        "initial-controllers",
                        "ID@HOST:PORT:DIRID,...",
                        "The quorum's initial controllers, the same on every node (KIP-853)"))
                .addOption(flag(
                        "no-initial-controllers",
                        "Record no controllers: the node joins a quorum formatted elsewhere"));
    }

    /**
     * The quorum {@link #quorumOptions} and {@code --controller-listener} name; {@code --standalone} when none of
     * the three is given (format requires one; restore writes a single node, so standalone is its default). An
     * {@code --initial-controllers} that does not parse is a bad argument.
     */
    static InitialQuorum quorum(CommandLine line) throws CommandException {
        boolean listed = line.hasOption("initial-controllers") || line.hasOption("no-initial-controllers");
        if (line.hasOption("controller-listener") && listed) {
            throw CommandException.usage(
                    "--controller-listener goes with --standalone; --initial-controllers names every controller's listener");
        }
        if (line.hasOption("initial-controllers")) {
            try {
                return new InitialQuorum.InitialControllers(
                        DynamicVoters.parse(line.getOptionValue("initial-controllers")));
            } catch (IllegalArgumentException e) {
                throw CommandException.usage("--initial-controllers: " + e.getMessage());
            }
        }
        if (line.hasOption("no-initial-controllers")) {
            return new InitialQuorum.NoInitialControllers();
        }
        return parse(() -> InitialQuorum.Standalone.parse(
                line.getOptionValue("controller-listener", DEFAULT_CONTROLLER_LISTENER)));
    }

    /** A {@code --node-id}: 0 to 2147483647, a negative one refused in Kafka's words. */
    static int nodeId(String text) throws CommandException {
        int nodeId;
        try {
            nodeId = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw CommandException.usage("--node-id '" + text + "' is not a number from 0 to 2147483647");
        }
        if (nodeId < 0) {
            // Kafka's message for node.id below zero.
            throw CommandException.usage(
                    "Invalid value " + nodeId + " for configuration node.id: Value must be at least 0");
        }
        return nodeId;
    }

    private static Optional<Uuid> directoryId(CommandLine line) throws CommandException {
        if (!line.hasOption("directory-id")) {
            return Optional.empty();
        }
        Uuid id = parse(() -> Uuid.fromString(line.getOptionValue("directory-id")));
        if (DirectoryId.isReserved(id)) {
            throw CommandException.usage("--directory-id " + id + " is one of the 100 ids Kafka reserves");
        }
        return Optional.of(id);
    }

    private static String listenerName(CommandLine line) throws CommandException {
        String name = line.getOptionValue("controller-listener-name", DEFAULT_CONTROLLER_LISTENER_NAME)
                .toUpperCase(Locale.ROOT);
        if (name.isBlank()) {
            throw CommandException.usage("--controller-listener-name is empty");
        }
        return name;
    }

    // A flag value that does not parse: a usage error with the parser's message.
    private static List<String> values(CommandLine line, String option) {
        return Optional.ofNullable(line.getOptionValues(option)).map(List::of).orElse(List.of());
    }

    static <T> T parse(Supplier<T> parser) throws CommandException {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new CommandException(ExitCode.USAGE, e.getMessage(), e);
        }
    }
}
