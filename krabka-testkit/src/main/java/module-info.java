/** Conformance kits that a plugin author runs against a plugin. */
module io.krabka.testkit {
    requires transitive io.krabka.spi;
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;
}
