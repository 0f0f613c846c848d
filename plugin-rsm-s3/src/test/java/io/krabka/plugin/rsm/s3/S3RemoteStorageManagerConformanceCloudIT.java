package io.krabka.plugin.rsm.s3;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import io.krabka.testservers.CloudS3Bucket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The conformance kit against the plugin on a real S3 bucket, with the SDK's defaults (HTTPS, default checksums,
 * credentials from its chain): run only by the opt-in {@code cloud} profile. Files of 8 MiB and more go in 5 MiB
 * parts, so the kit's large segment is a multipart upload.
 */
class S3RemoteStorageManagerConformanceCloudIT extends RemoteStorageManagerConformance {
    @RegisterExtension
    static final CloudS3Bucket CLOUD = new CloudS3Bucket();

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(S3StoreConfig.BUCKET, CLOUD.bucket());
        settings.put(
                S3StorageConfig.PREFIX,
                CLOUD.prefix() + "/" + scratch.getParent().getFileName());
        CLOUD.region().ifPresent(region -> settings.put(S3StoreConfig.REGION, region));
        CLOUD.endpoint().ifPresent(endpoint -> settings.put(S3StoreConfig.ENDPOINT, endpoint.toString()));
        settings.put(S3StoreConfig.PATH_STYLE_ACCESS, CLOUD.pathStyle());
        CLOUD.checksumCalculation().ifPresent(mode -> settings.put(S3StoreConfig.CHECKSUM_CALCULATION, mode));
        settings.put(S3StoreConfig.MULTIPART_THRESHOLD_BYTES, 8L << 20);
        settings.put(S3StoreConfig.MULTIPART_PART_SIZE_BYTES, 5L << 20);
        RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create();
        rsm.configure(settings);
        return rsm;
    }
}
