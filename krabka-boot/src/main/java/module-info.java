/**
 * The first module to run: it keeps the boot layer down to the JDK and the SPI, and starts the kernel and the
 * launcher in a child layer. Plugin layers are children of the boot layer too, so a plugin's automatic modules,
 * which read every module of their parent layers, never meet the kernel's libraries.
 */
module io.krabka.boot {
    requires io.krabka.spi;
}
