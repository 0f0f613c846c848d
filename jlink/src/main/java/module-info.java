/**
 * Builds Krabka's runtime images: a JDK linked down to the modules the kernel and the chosen plugins need, with
 * the kernel's jars, those plugins and a start script beside it. Run by {@code jlink/build-image}.
 */
module io.krabka.jlink {
    // Both export nothing; they are reached through java.util.spi.ToolProvider and must be in the boot layer.
    requires jdk.jlink;
    requires jdk.jdeps;
}
