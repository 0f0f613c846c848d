package io.krabka.plugin.rsm.gcs;

import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.StorageRetryStrategy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;

/** Makes the google-cloud-storage client a store's settings describe. */
final class GcsClient {
    private static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(100);
    private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(10);

    private GcsClient() {}

    /**
     * A client as the settings say, not yet contacting anything.
     *
     * @throws IOException if the service account key file cannot be read
     */
    static Storage create(GcsStoreConfig config) throws IOException {
        StorageOptions.Builder builder = StorageOptions.http()
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout(
                                Math.toIntExact(config.requestTimeout().toMillis()))
                        .setReadTimeout(Math.toIntExact(config.requestTimeout().toMillis()))
                        .build())
                .setRetrySettings(RetrySettings.newBuilder()
                        .setMaxAttempts(config.retries() + 1)
                        .setInitialRetryDelayDuration(FIRST_RETRY_DELAY)
                        .setMaxRetryDelayDuration(MAX_RETRY_DELAY)
                        .setRetryDelayMultiplier(2.0)
                        .setTotalTimeoutDuration(config.totalTimeout())
                        .build())
                // A replacing write repeats the same bytes, and a create whose earlier attempt landed is recognised
                // by its create id (GcsObjectStore), so every request may be retried.
                .setStorageRetryStrategy(StorageRetryStrategy.getUniformStorageRetryStrategy());
        config.endpoint().ifPresent(uri -> builder.setHost(uri.toString().replaceAll("/$", "")));
        config.projectId().ifPresent(builder::setProjectId);
        switch (config.credentials()) {
            case GcsStoreConfig.Credentials.None none -> builder.setCredentials(NoCredentials.getInstance());
            case GcsStoreConfig.Credentials.ServiceAccountFile file -> {
                try (InputStream in = Files.newInputStream(file.path())) {
                    builder.setCredentials(GoogleCredentials.fromStream(in));
                }
            }
            case GcsStoreConfig.Credentials.ApplicationDefault adc -> {
                // the client finds Application Default Credentials itself
            }
        }
        return builder.build().getService();
    }
}
