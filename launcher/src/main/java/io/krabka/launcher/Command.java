package io.krabka.launcher;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/** One subcommand of {@code krabka}. */
interface Command {

    /** The word that selects it: {@code krabka <name> ...}. */
    String name();

    /** One line for the command list. */
    String summary();

    /** What {@code --help} prints after the options, such as the exit codes; empty by default. */
    default String helpFooter() {
        return "";
    }

    /** Its options; {@code --help} is added for every command. */
    Options options();

    /**
     * Runs it.
     *
     * @return the exit code, one of {@link ExitCode}
     * @throws CommandException for a failure to report in one line with its exit code
     */
    int run(CommandLine line, Console console) throws CommandException;
}
