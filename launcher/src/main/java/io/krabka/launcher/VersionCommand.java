package io.krabka.launcher;

import io.krabka.spi.plugin.SpiVersion;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/** {@code krabka version}: the versions of Krabka, its SPI and the Java runtime. */
final class VersionCommand implements Command {

    @Override
    public String name() {
        return "version";
    }

    @Override
    public String summary() {
        return "Print the versions of Krabka, its plugin SPI and the Java runtime";
    }

    @Override
    public Options options() {
        return new Options();
    }

    @Override
    public int run(CommandLine line, Console console) {
        console.out().println("krabka " + Krabka.version());
        console.out().println("spi " + SpiVersion.CURRENT);
        console.out().println("java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        return ExitCode.OK;
    }
}
