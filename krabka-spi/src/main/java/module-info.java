/**
 * Krabka's plugin API. It depends on {@code java.base} alone, so a plugin can be built against it without
 * pulling in any library version, and none of its types can leak one.
 */
module io.krabka.spi {
    exports io.krabka.spi.common;
    exports io.krabka.spi.objectstore;
    exports io.krabka.spi.plugin;
    exports io.krabka.spi.storage;
}
