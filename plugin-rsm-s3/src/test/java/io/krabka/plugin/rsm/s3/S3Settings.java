package io.krabka.plugin.rsm.s3;

import io.krabka.testservers.S3Server;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** The plugin's settings for a test server's bucket. */
final class S3Settings {
    private S3Settings() {}

    /** Settings for {@code bucket} of {@code server}, reached through {@code endpoint}, under {@code prefix}. */
    static Map<String, Object> of(S3Server server, URI endpoint, String bucket, String prefix) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(S3StoreConfig.BUCKET, bucket);
        settings.put(S3StorageConfig.PREFIX, prefix);
        settings.put(S3StoreConfig.ENDPOINT, endpoint.toString());
        settings.put(S3StoreConfig.PATH_STYLE_ACCESS, "true");
        settings.put(S3StoreConfig.ACCESS_KEY_ID, server.accessKeyId());
        settings.put(S3StoreConfig.SECRET_ACCESS_KEY, server.secretAccessKey());
        settings.put(
                S3StoreConfig.CHECKSUM_CALCULATION, server.checksumWhenRequired() ? "when_required" : "when_supported");
        return settings;
    }

    /**
     * Settings of the {@code s3} object store for {@code bucket} of {@code server} (plain http on 127.0.0.1), files
     * from 6 MiB on in parts of 5 MiB.
     */
    static Map<String, Object> store(S3Server server, String bucket) {
        Map<String, Object> settings = of(server, server.endpoint(), bucket, "");
        settings.remove(S3StorageConfig.PREFIX);
        settings.put(S3StoreConfig.ALLOW_HTTP, "true");
        settings.put(S3StoreConfig.MULTIPART_THRESHOLD_BYTES, 6L << 20);
        settings.put(S3StoreConfig.MULTIPART_PART_SIZE_BYTES, 5L << 20);
        return settings;
    }
}
