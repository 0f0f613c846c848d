package io.krabka.it;

import io.krabka.testservers.RadosgwBuckets;
import io.krabka.testservers.S3Server;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/** {@link ObjectStoreTieredStorageIT} on Ceph radosgw through the {@code s3} plugin. */
class S3TieredStorageIT extends ObjectStoreTieredStorageIT {
    @RegisterExtension
    static final RadosgwBuckets RGW = new RadosgwBuckets();

    @Override
    Map<String, String> tierSettings() {
        S3Server server = RGW.server();
        return Map.of(
                "remote.log.storage.manager.class.name",
                "s3",
                "rsm.config.bucket",
                RGW.bucket(),
                "rsm.config.prefix",
                PREFIX,
                "rsm.config.endpoint",
                server.endpoint().toString(),
                "rsm.config.path.style.access",
                "true",
                "rsm.config.access.key.id",
                server.accessKeyId(),
                "rsm.config.secret.access.key",
                server.secretAccessKey(),
                "rsm.config.checksum.calculation",
                server.checksumWhenRequired() ? "when_required" : "when_supported");
    }

    @Override
    List<String> keys(String prefix) {
        try (S3Client s3 = RGW.server().client()) {
            return s3.listObjectsV2Paginator(b -> b.bucket(RGW.bucket()).prefix(prefix)).contents().stream()
                    .map(S3Object::key)
                    .toList();
        }
    }
}
