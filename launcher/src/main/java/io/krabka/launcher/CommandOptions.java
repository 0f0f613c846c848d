package io.krabka.launcher;

import org.apache.commons.cli.Option;

/** The option shapes the commands share. */
final class CommandOptions {

    private CommandOptions() {
    }

    /** A flag without a value: {@code --name}. */
    static Option flag(String name, String description) {
        return Option.builder().longOpt(name).desc(description).get();
    }

    /** An option with one value: {@code --name VALUE}; given twice, the last one counts. */
    static Option value(String name, String argName, String description) {
        return Option.builder().longOpt(name).hasArg().argName(argName).desc(description).get();
    }

    /** An option that may be given several times, each with one value. */
    static Option repeatable(String name, String argName, String description) {
        return Option.builder().longOpt(name).hasArg().argName(argName).desc(description + " (repeatable)").get();
    }
}
