package io.krabka.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.help.HelpFormatter;
import org.apache.commons.cli.help.TextHelpAppendable;

/** The {@code krabka} command: picks the subcommand named by the first argument and runs it. */
public final class Krabka {
    private final Map<String, Command> commands = new LinkedHashMap<>();

    Krabka(List<Command> commands) {
        commands.forEach(command -> this.commands.put(command.name(), command));
    }

    /** Every subcommand that works today. */
    static Krabka standard() {
        return new Krabka(List.of(
                new BrokerCommand(),
                new FormatCommand(),
                new PluginsCommand(),
                new RestoreCommand(),
                new VerifyCommand(),
                new VersionCommand()));
    }

    /** Runs {@code krabka} and exits with its code. */
    public static void main(String[] args) {
        System.exit(standard().run(args, Console.system()));
    }

    /** Runs one command line and returns its exit code. */
    int run(String[] args, Console console) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            printUsage(console);
            return args.length == 0 ? ExitCode.USAGE : ExitCode.OK;
        }
        Command command = commands.get(args[0]);
        if (command == null) {
            console.err()
                    .println("krabka: unknown command '" + args[0] + "'; commands: "
                            + String.join(", ", commands.keySet()));
            return ExitCode.USAGE;
        }
        Options options = command.options();
        options.addOption(
                Option.builder("h").longOpt("help").desc("Show this help").get());
        String[] commandArgs = Arrays.copyOfRange(args, 1, args.length);
        // Before parsing: a command's required options must not stand in the way of its help.
        if (Arrays.asList(commandArgs).contains("--help")
                || Arrays.asList(commandArgs).contains("-h")) {
            try {
                HelpFormatter.builder()
                        .setShowSince(false)
                        .setHelpAppendable(new TextHelpAppendable(console.out()))
                        .get()
                        .printHelp("krabka " + command.name(), command.summary(), options, command.helpFooter(), true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return ExitCode.OK;
        }
        CommandLine line;
        try {
            line = DefaultParser.builder().setAllowPartialMatching(false).get().parse(options, commandArgs);
        } catch (ParseException e) {
            console.err().println("krabka " + command.name() + ": " + e.getMessage());
            return ExitCode.USAGE;
        }
        if (!line.getArgList().isEmpty()) {
            console.err()
                    .println("krabka " + command.name() + ": unexpected argument '"
                            + line.getArgList().getFirst() + "'");
            return ExitCode.USAGE;
        }
        try {
            return command.run(line, console);
        } catch (CommandException e) {
            console.err().println("krabka " + command.name() + ": " + e.getMessage());
            return e.exitCode();
        }
    }

    private void printUsage(Console console) {
        console.out().println("usage: krabka <command> [options]    (krabka <command> --help for its options)");
        console.out().println();
        commands.values().forEach(c -> console.out().printf("  %-10s %s%n", c.name(), c.summary()));
    }

    /** Krabka's version, from the launcher module's descriptor. */
    static String version() {
        return Krabka.class.getModule().getDescriptor() == null
                ? "unknown"
                : Krabka.class.getModule().getDescriptor().rawVersion().orElse("unknown");
    }
}
