package io.krabka.it;

import io.krabka.testservers.CloudS3Bucket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ObjectStoreTieredStorageIT} on a real S3 bucket through the {@code s3} plugin with the SDK's defaults: run
 * only by the opt-in {@code cloud} profile. The broker finds the credentials through the SDK's default chain, as the
 * test does.
 */
class S3TieredStorageCloudIT extends ObjectStoreTieredStorageIT {
    @RegisterExtension
    static final CloudS3Bucket CLOUD = new CloudS3Bucket();

    @Override
    Map<String, String> tierSettings() {
        Map<String, String> settings = new HashMap<>(Map.of(
                "remote.log.storage.manager.class.name",
                "s3",
                "rsm.config.bucket",
                CLOUD.bucket(),
                "rsm.config.prefix",
                prefix()));
        CLOUD.region().ifPresent(region -> settings.put("rsm.config.region", region));
        CLOUD.endpoint().ifPresent(endpoint -> settings.put("rsm.config.endpoint", endpoint.toString()));
        settings.put("rsm.config.path.style.access", String.valueOf(CLOUD.pathStyle()));
        CLOUD.checksumCalculation().ifPresent(mode -> settings.put("rsm.config.checksum.calculation", mode));
        return settings;
    }

    @Override
    String prefix() {
        return CLOUD.prefix();
    }

    @Override
    List<String> keys(String prefix) {
        try (S3Client s3 = CLOUD.client()) {
            return s3.listObjectsV2Paginator(b -> b.bucket(CLOUD.bucket()).prefix(prefix)).contents().stream()
                    .map(S3Object::key)
                    .toList();
        }
    }
}
