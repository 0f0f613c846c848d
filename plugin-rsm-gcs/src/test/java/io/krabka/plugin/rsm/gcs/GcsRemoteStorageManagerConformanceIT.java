package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.fixture.gcs.GcsFixture;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit against the plugin, through the real google-cloud-storage client, on the GCS fixture. Each rule
 * gets a key prefix of its own, named after its scratch directory, so a second instance on the same directory (the
 * durability rule) reads what the first stored. The ITs run with a heap below the kit's large segment, so its
 * streaming rule is checked: the resumable upload and the ranged reads must stream.
 */
class GcsRemoteStorageManagerConformanceIT extends RemoteStorageManagerConformance {
    private static GcsFixture fixture;

    @BeforeAll
    static void startFixture() throws IOException {
        fixture = GcsFixture.start();
        fixture.createBucket("tier", false, null);
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        RemoteStorageManager rsm = new GcsRemoteStorageManagerProvider().create();
        rsm.configure(FixtureTier.settings(
                fixture, "tier", "kit/" + scratch.getParent().getFileName()));
        return rsm;
    }

    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(
                heap < largeSegmentBytes(),
                "the failsafe -Xmx gives a heap of " + heap + " bytes, not below the kit's large segment of "
                        + largeSegmentBytes() + " bytes");
    }
}
