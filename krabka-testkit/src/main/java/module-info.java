/**
 * Conformance kits for Krabka's tiered-storage SPI: abstract JUnit 5 classes that a plugin author subclasses in a
 * test, points at an implementation and runs. {@link io.krabka.testkit.RemoteStorageManagerConformance} checks a
 * {@code RemoteStorageManager}, {@link io.krabka.testkit.RemoteLogMetadataManagerConformance} a
 * {@code RemoteLogMetadataManager}.
 */
module io.krabka.testkit {
    requires transitive io.krabka.spi;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;

    exports io.krabka.testkit;

    uses io.krabka.spi.plugin.ObjectStoreProvider;
}
