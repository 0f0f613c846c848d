package io.krabka.plugin.rsm.gcs;

import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.StorageRetryStrategy;
import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.plugin.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/** Opens the GCS tier a configuration names: the client, the store over it and the key layout. */
final class GcsTier {
    private static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(100);
    private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(10);

    private GcsTier() {
    }

    /**
     * The tier of a configuration, not yet contacted.
     *
     * @throws ConfigException for an invalid setting, or credentials the client cannot read
     */
    static ObjectStoreRemoteStorageManager.Tier open(Map<String, ?> configs) {
        GcsStorageConfig config = GcsStorageConfig.parse(configs);
        Storage storage;
        try {
            storage = client(config);
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("cannot create the GCS client for bucket \"" + config.bucket() + "\": "
                    + GcsErrors.describe(e));
        }
        return new ObjectStoreRemoteStorageManager.Tier(
                new GcsObjectStore(storage, config.bucket(), config.chunkSize(), config.resumableThreshold()),
                config.keys());
    }

    /** A client as the configuration says. */
    static Storage client(GcsStorageConfig config) throws IOException {
        StorageOptions.Builder builder = StorageOptions.http()
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout(Math.toIntExact(config.requestTimeout().toMillis()))
                        .setReadTimeout(Math.toIntExact(config.requestTimeout().toMillis()))
                        .build())
                .setRetrySettings(RetrySettings.newBuilder()
                        .setMaxAttempts(config.retries() + 1)
                        .setInitialRetryDelayDuration(FIRST_RETRY_DELAY)
                        .setMaxRetryDelayDuration(MAX_RETRY_DELAY)
                        .setRetryDelayMultiplier(2.0)
                        .setTotalTimeoutDuration(config.totalTimeout())
                        .build())
                // The tier's writes replace whole objects with the same bytes, so every request may be retried.
                .setStorageRetryStrategy(StorageRetryStrategy.getUniformStorageRetryStrategy());
        config.endpoint().ifPresent(uri -> builder.setHost(uri.toString().replaceAll("/$", "")));
        config.projectId().ifPresent(builder::setProjectId);
        switch (config.credentials()) {
            case GcsStorageConfig.Credentials.None none -> builder.setCredentials(NoCredentials.getInstance());
            case GcsStorageConfig.Credentials.ServiceAccountFile file -> {
                try (InputStream in = Files.newInputStream(file.path())) {
                    builder.setCredentials(GoogleCredentials.fromStream(in));
                }
            }
            case GcsStorageConfig.Credentials.ApplicationDefault adc -> {
                // the client finds Application Default Credentials itself
            }
        }
        return builder.build().getService();
    }
}
