/** The {@code krabka} command: one small command class per subcommand over Commons CLI. */
module io.krabka.launcher {
    requires io.krabka.kernel;
    requires io.krabka.spi;
    requires io.krabka.archive;
    requires org.apache.commons.cli;
    requires com.fasterxml.jackson.databind;
    // sun.misc.Signal, reached by reflection (StopSignals): resolved, so the image links it.
    requires jdk.unsupported;
}
