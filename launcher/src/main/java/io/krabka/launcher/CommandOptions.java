package io.krabka.launcher;

import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;

/** The option shapes the commands share, and reading them back. */
final class CommandOptions {

    private CommandOptions() {}

    /** A flag without a value: {@code --name}. */
    static Option flag(String name, String description) {
        return Option.builder().longOpt(name).desc(description).get();
    }

    /** An option with one value: {@code --name VALUE}; given twice, the last one counts. */
    static Option value(String name, String argName, String description) {
        return Option.builder()
                .longOpt(name)
                .hasArg()
                .argName(argName)
                .desc(description)
                .get();
    }

    /** An option that may be given several times, each with one value. */
    static Option repeatable(String name, String argName, String description) {
        return Option.builder()
                .longOpt(name)
                .hasArg()
                .argName(argName)
                .desc(description + " (repeatable)")
                .get();
    }

    /** Every value of a {@link #repeatable} option, in the order given; empty when it is absent. */
    static List<String> values(CommandLine line, String option) {
        String[] values = line.getOptionValues(option);
        return values == null ? List.of() : List.of(values);
    }
}
