package io.krabka.plugin.rsm.gcs;

import io.krabka.fixture.gcs.GcsFixture;
import java.util.HashMap;
import java.util.Map;

/** The plugin's settings for a bucket of the GCS fixture: its endpoint, no credentials, small chunks. */
final class FixtureTier {
    static final int MIB = 1 << 20;

    private FixtureTier() {}

    /**
     * Settings for {@code bucket} under {@code prefix}: 1 MiB chunks and a 2 MiB resumable threshold, so that files of
     * a few MiB already take the resumable path, and two quick retries.
     */
    static Map<String, Object> settings(GcsFixture fixture, String bucket, String prefix) {
        Map<String, Object> settings = storeSettings(fixture, bucket);
        settings.put(GcsStorageConfig.PREFIX, prefix);
        return settings;
    }

    /** The object store's settings for {@code bucket}: those of {@link #settings} but the prefix. */
    static Map<String, Object> storeSettings(GcsFixture fixture, String bucket) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(GcsStoreConfig.BUCKET, bucket);
        settings.put(GcsStoreConfig.ENDPOINT, fixture.endpoint());
        settings.put(GcsStoreConfig.NO_CREDENTIALS, true);
        settings.put(GcsStoreConfig.PROJECT_ID, "test");
        settings.put(GcsStoreConfig.CHUNK_SIZE, MIB);
        settings.put(GcsStoreConfig.RESUMABLE_THRESHOLD_BYTES, 2 * MIB);
        settings.put(GcsStoreConfig.RETRIES, 2);
        return settings;
    }
}
