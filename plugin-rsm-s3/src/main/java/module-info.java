/**
 * A RemoteStorageManager on Amazon S3 or any S3-compatible service, through the AWS SDK for Java v2, and the same
 * bucket as an object store.
 */
// "s3" is the service's name, terminal digit and all.
@SuppressWarnings("module")
module io.krabka.plugin.rsm.s3 {
    requires io.krabka.spi;
    requires io.krabka.objectstore;
    requires software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.http.apache5;
    requires software.amazon.awssdk.identity.spi;
    requires software.amazon.awssdk.retries.api;

    provides io.krabka.spi.plugin.RemoteStorageManagerProvider with
            io.krabka.plugin.rsm.s3.S3RemoteStorageManagerProvider;
    provides io.krabka.spi.plugin.ObjectStoreProvider with
            io.krabka.plugin.rsm.s3.S3ObjectStoreProvider;
}
