package io.krabka.plugin.rsm.gcs;

import io.krabka.fixture.gcs.GcsFixture;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.testkit.ObjectStoreCapability;
import io.krabka.testkit.ObjectStoreConformance;
import io.krabka.testkit.ObjectStores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The object-store kit against the {@code gcs} store, opened by name, through the real client on the GCS fixture:
 * on a versioned bucket and on a plain one. Creates are refused by GCS itself ({@code ifGenerationMatch=0}) on both
 * upload paths; versions are kept only where the bucket has object versioning; neither bucket has a retention
 * policy, so deletes are allowed. The kit's 9 MiB large object takes the resumable path (threshold 2 MiB).
 */
class GcsObjectStoreConformanceIT {
    private static GcsFixture fixture;

    @BeforeAll
    static void startFixture() throws IOException {
        fixture = GcsFixture.start();
        fixture.createBucket("versioned", true, null);
        fixture.createBucket("plain", false, null);
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    @Nested
    class VersionedBucket extends ObjectStoreConformance {
        @Override
        protected ObjectStore createObjectStore(Path scratch) throws Exception {
            return ObjectStores.open("gcs", FixtureTier.storeSettings(fixture, "versioned"));
        }

        @Override
        protected Set<ObjectStoreCapability> capabilities() {
            return EnumSet.of(
                    ObjectStoreCapability.CREATE_REFUSES_EXISTING,
                    ObjectStoreCapability.VERSIONS,
                    ObjectStoreCapability.DELETE);
        }
    }

    @Nested
    class PlainBucket extends ObjectStoreConformance {
        @Override
        protected ObjectStore createObjectStore(Path scratch) throws Exception {
            return ObjectStores.open("gcs", FixtureTier.storeSettings(fixture, "plain"));
        }

        @Override
        protected Set<ObjectStoreCapability> capabilities() {
            return EnumSet.of(ObjectStoreCapability.CREATE_REFUSES_EXISTING, ObjectStoreCapability.DELETE);
        }
    }
}
