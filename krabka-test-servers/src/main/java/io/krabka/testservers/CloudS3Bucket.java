package io.krabka.testservers;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A JUnit 5 extension for the opt-in {@code cloud} profile: a test class gets a real S3 bucket named by
 * {@value #BUCKET} (credentials from the SDK's default chain, region from {@value #REGION} or that chain; for an
 * S3-compatible service other than AWS, {@value #ENDPOINT}, {@value #PATH_STYLE}{@code =true} and
 * {@value #CHECKSUM}{@code =when_required} as it needs) and a key prefix of its own under {@code krabka-tests/}, whose
 * objects and open multipart uploads are removed after the class. The bucket itself is never created or deleted. Without
 * {@value #BUCKET} the class fails: the profile is asked for on purpose, so a missing setting is an error, not a skip.
 */
public final class CloudS3Bucket implements BeforeAllCallback, AfterAllCallback {
    /** The bucket's name. */
    public static final String BUCKET = "KRABKA_CLOUD_S3_BUCKET";
    /** The bucket's region; unset for the SDK's default region chain. */
    public static final String REGION = "KRABKA_CLOUD_S3_REGION";
    /** An endpoint other than AWS's; unset for AWS. */
    public static final String ENDPOINT = "KRABKA_CLOUD_S3_ENDPOINT";
    /** {@code true} for path-style requests; unset for virtual-hosted style. */
    public static final String PATH_STYLE = "KRABKA_CLOUD_S3_PATH_STYLE";
    /** {@code when_required} for a service that refuses the SDK's default checksums; unset for the default. */
    public static final String CHECKSUM = "KRABKA_CLOUD_S3_CHECKSUM";

    private String bucket;
    private String prefix;

    /** An extension; the bucket is read from the environment before the class's tests run. */
    public CloudS3Bucket() {}

    @Override
    public void beforeAll(ExtensionContext context) {
        bucket = CloudRun.setting(BUCKET).orElse(null);
        if (bucket == null) {
            Assertions.fail(
                    "the cloud profile needs " + BUCKET + " (and AWS credentials the SDK's default chain finds; "
                            + REGION + ", " + ENDPOINT + ", " + PATH_STYLE + " and " + CHECKSUM + " are optional)");
        }
        prefix = CloudRun.prefix(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (prefix == null) {
            return;
        }
        try (S3Client s3 = client()) {
            s3.listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(prefix))
                    .uploads()
                    .forEach(u -> s3.abortMultipartUpload(
                            b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId())));
            for (S3Object object : s3.listObjectsV2Paginator(
                            b -> b.bucket(bucket).prefix(prefix))
                    .contents()) {
                s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
        }
    }

    /** The bucket. */
    public String bucket() {
        return bucket;
    }

    /** The class's key prefix in the bucket (no trailing slash). */
    public String prefix() {
        return prefix;
    }

    /** The region given, if any. */
    public Optional<String> region() {
        return CloudRun.setting(REGION);
    }

    /** The endpoint given, if any. */
    public Optional<URI> endpoint() {
        return CloudRun.setting(ENDPOINT).map(URI::create);
    }

    /** Whether requests are path-style. */
    public boolean pathStyle() {
        return CloudRun.setting(PATH_STYLE).map(Boolean::parseBoolean).orElse(false);
    }

    /** The checksum mode given ({@code when_supported} or {@code when_required}), if any. */
    public Optional<String> checksumCalculation() {
        return CloudRun.setting(CHECKSUM);
    }

    /** A client of the bucket's service with the default credentials, for set-up and checks; the caller closes it. */
    public S3Client client() {
        S3ClientBuilder builder =
                S3Client.builder().httpClient(Apache5HttpClient.create()).forcePathStyle(pathStyle());
        if (checksumCalculation().filter("when_required"::equals).isPresent()) {
            builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        region().map(Region::of).ifPresent(builder::region);
        endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }
}
