/** Krabka's kernel: the plugin host and the engines behind the broker. */
module io.krabka.kernel {
    requires transitive io.krabka.spi;
}
