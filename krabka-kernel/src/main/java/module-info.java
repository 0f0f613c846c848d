/** Krabka's kernel: the plugin host and the engines behind the broker. */
// "module": the launcher is not on the kernel's module path when the kernel compiles alone.
@SuppressWarnings("module")
module io.krabka.kernel {
    requires transitive io.krabka.spi;
    requires io.krabka.archive;
    requires io.krabka.objectstore;
    // The codecs of Kafka's compressed record batches.
    requires com.github.luben.zstd_jni;
    requires org.lz4.java;
    requires snappy.java;
    // The JSON body of Kafka's clean-shutdown marker, and the restore's JSON report.
    requires com.fasterxml.jackson.core;
    // Kafka's wire protocol: request headers and the generated message classes.
    requires kafka.clients;
    // The broker's network layer.
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.handler;
    requires io.netty.codec;
    // Optional: the network layer uses epoll only where the native transport is present.
    requires static io.netty.transport.classes.epoll;
    // The broker's health endpoint (/healthz, /readyz).
    requires jdk.httpserver;
    // The broker's metrics, on JMX under Kafka's names.
    requires java.management;
    // SASL authentication on the listeners: kafka-clients' PLAIN and SCRAM servers are javax.security.sasl's.
    requires java.security.sasl;

    // Only the launcher may use the kernel: an automatic module in a plugin's layer reads every module,
    // so the kernel's packages are exported to no one else.
    exports io.krabka.kernel.plugin to
            io.krabka.launcher;
    exports io.krabka.kernel.format to
            io.krabka.launcher;
    exports io.krabka.kernel.metadata to
            io.krabka.launcher;
    exports io.krabka.kernel.broker to
            io.krabka.launcher;
    exports io.krabka.kernel.log to
            io.krabka.launcher;
    exports io.krabka.kernel.restore to
            io.krabka.launcher;
    exports io.krabka.kernel.restore.authenticate to
            io.krabka.launcher;
    exports io.krabka.kernel.restore.bound to
            io.krabka.launcher;
    exports io.krabka.kernel.restore.metadata to
            io.krabka.launcher;
    exports io.krabka.kernel.restore.report to
            io.krabka.launcher;

    uses io.krabka.spi.plugin.RemoteStorageManagerProvider;
    uses io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
    uses io.krabka.spi.plugin.ObjectStoreProvider;
}
