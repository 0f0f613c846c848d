package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.fail;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Storage;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import io.krabka.testservers.CloudRun;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance kit against the plugin on a real Google Cloud Storage bucket, run only by the opt-in {@code cloud}
 * profile: the bucket from {@value #BUCKET}, credentials from the key file {@value #CREDENTIALS} or else Application
 * Default Credentials, the project from {@value #PROJECT} or the credentials. The run's objects, under a prefix of
 * its own, are deleted afterwards; the bucket is never created or deleted.
 */
class GcsRemoteStorageManagerConformanceCloudIT extends RemoteStorageManagerConformance {
    static final String BUCKET = "KRABKA_CLOUD_GCS_BUCKET";
    static final String CREDENTIALS = "KRABKA_CLOUD_GCS_CREDENTIALS";
    static final String PROJECT = "KRABKA_CLOUD_GCS_PROJECT";
    private static final String RUN_PREFIX = CloudRun.prefix("gcs-conformance");

    @BeforeAll
    static void bucketIsGiven() {
        if (CloudRun.setting(BUCKET).isEmpty()) {
            fail("the cloud profile needs " + BUCKET + " (and " + CREDENTIALS + " or Application Default Credentials; "
                    + PROJECT + " is optional)");
        }
    }

    @AfterAll
    static void deleteTheRunsObjects() throws Exception {
        if (CloudRun.setting(BUCKET).isEmpty()) {
            return;
        }
        Storage storage =
                GcsClient.create(GcsStorageConfig.parse(settings(RUN_PREFIX)).store());
        try (storage) {
            for (Blob blob : storage.list(
                            CloudRun.setting(BUCKET).orElseThrow(), Storage.BlobListOption.prefix(RUN_PREFIX + "/"))
                    .iterateAll()) {
                storage.delete(blob.getBlobId());
            }
        }
    }

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        RemoteStorageManager rsm = new GcsRemoteStorageManagerProvider().create();
        rsm.configure(settings(RUN_PREFIX + "/" + scratch.getParent().getFileName()));
        return rsm;
    }

    private static Map<String, Object> settings(String prefix) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(GcsStoreConfig.BUCKET, CloudRun.setting(BUCKET).orElseThrow());
        settings.put(GcsStorageConfig.PREFIX, prefix);
        CloudRun.setting(CREDENTIALS).ifPresent(path -> settings.put(GcsStoreConfig.CREDENTIALS_PATH, path));
        CloudRun.setting(PROJECT).ifPresent(project -> settings.put(GcsStoreConfig.PROJECT_ID, project));
        return settings;
    }
}
