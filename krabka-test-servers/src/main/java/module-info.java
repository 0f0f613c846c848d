/**
 * Real servers for integration tests: Ceph radosgw, started from the repository's scripts, S3Proxy, real S3
 * buckets for the opt-in cloud profile, a fault-injecting TCP proxy to put in front of them, and a file system that
 * fails the fsyncs and writes a test asks for. Test support only, never shipped.
 */
module io.krabka.testservers {
    requires transitive org.junit.jupiter.api;
    requires transitive software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.http.apache5;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.http;
    requires java.net.http;
    requires org.bouncycastle.pkix;
    requires org.bouncycastle.provider;
    requires org.bouncycastle.util;

    exports io.krabka.testservers;
    exports io.krabka.testservers.faults;
}
