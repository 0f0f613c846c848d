package io.krabka.testservers;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A running S3-compatible server on 127.0.0.1 and the credentials of its test user.
 *
 * @param endpoint        its URL
 * @param accessKeyId     the test user's access key
 * @param secretAccessKey the test user's secret
 * @param checksumWhenRequired whether clients must send checksums only when required (radosgw 16)
 */
public record S3Server(URI endpoint, String accessKeyId, String secretAccessKey, boolean checksumWhenRequired) {

    /** A client of the server, path-style, for test set-up and checks; the caller closes it. */
    public S3Client client() {
        return clientOf(endpoint);
    }

    /** A client with this server's credentials of another endpoint (a proxy in front of it); the caller closes it. */
    public S3Client clientOf(URI otherEndpoint) {
        var builder = S3Client.builder()
                .httpClient(Apache5HttpClient.create())
                .endpointOverride(otherEndpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey)));
        if (checksumWhenRequired) {
            builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        return builder.build();
    }
}
