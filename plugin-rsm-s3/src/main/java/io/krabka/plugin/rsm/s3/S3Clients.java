package io.krabka.plugin.rsm.s3;

import io.krabka.spi.plugin.ConfigException;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** The S3 client a store's settings describe. */
final class S3Clients {
    /** The region an endpoint override signs with when none is given; S3-compatible services accept any. */
    private static final Region ENDPOINT_DEFAULT_REGION = Region.US_EAST_1;

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private S3Clients() {}

    /**
     * A client as the settings say, not yet contacting the service.
     *
     * @throws ConfigException if the SDK cannot create it, e.g. for want of a region
     */
    static S3Client create(S3StoreConfig config) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder()
                        .connectionTimeout(CONNECT_TIMEOUT)
                        .socketTimeout(config.attemptTimeout()))
                .forcePathStyle(config.pathStyleAccess())
                .overrideConfiguration(o -> o.apiCallTimeout(config.apiCallTimeout())
                        .apiCallAttemptTimeout(config.attemptTimeout())
                        .retryStrategy(r -> r.maxAttempts(config.retries() + 1)));
        config.endpoint().ifPresent(builder::endpointOverride);
        config.region()
                .map(Region::of)
                .or(() -> config.endpoint().map(e -> ENDPOINT_DEFAULT_REGION))
                .ifPresent(builder::region);
        // Without static credentials the SDK uses its default chain.
        config.credentials()
                .ifPresent(c -> builder.credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey()))));
        if (config.checksumWhenRequired()) {
            // Older services (Ceph radosgw 16) refuse aws-chunked bodies: trailing checksums always, and the
            // streaming signature of an empty body over plain http.
            builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .serviceConfiguration(s -> s.chunkedEncodingEnabled(false));
        }
        try {
            return builder.build();
        } catch (SdkException e) {
            throw new ConfigException("cannot create the S3 client for bucket \"" + config.bucket() + "\": "
                    + S3Errors.oneLine(e) + (config.region().isEmpty() ? " (set " + S3StoreConfig.REGION + ")" : ""));
        }
    }
}
