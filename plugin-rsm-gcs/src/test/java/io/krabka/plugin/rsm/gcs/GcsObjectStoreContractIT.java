package io.krabka.plugin.rsm.gcs;

import static io.krabka.plugin.rsm.gcs.FixtureTier.MIB;
import static io.krabka.plugin.rsm.gcs.GcsObjectStoreIT.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.storage.Bucket;
import com.google.cloud.storage.Storage;
import io.krabka.fixture.gcs.GcsFixture;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.ObjectStores;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every method of the {@code gcs} object store, opened by name as the kernel opens it, through the real client on
 * the GCS fixture: create-only writes on both upload paths, reads and heads by generation, one page at a time,
 * and the protection of buckets with no, an unlocked and a locked retention policy.
 */
class GcsObjectStoreContractIT {
    private static final Duration HOUR = Duration.ofHours(1);

    private GcsFixture fixture;
    private Storage admin;

    @BeforeEach
    void start() throws IOException {
        fixture = GcsFixture.start();
        admin = GcsClient.create(GcsStoreConfig.parse(FixtureTier.storeSettings(fixture, "any")));
    }

    @AfterEach
    void stop() throws Exception {
        admin.close();
        fixture.close();
    }

    @Test
    void createRefusesAnExistingKeyOnBothUploadPaths(@TempDir Path dir) throws Exception {
        fixture.createBucket("b", false, null);
        try (ObjectStore store = open("b")) {
            StoredObject first = store.create("k", ByteBuffer.wrap(bytes(10)));
            assertTrue(first.createPrecondition());
            assertEquals(10, first.size());
            assertTrue(first.version().isPresent() && first.etag().isPresent(), first.toString());
            ObjectExistsException buffer =
                    assertThrows(ObjectExistsException.class, () -> store.create("k", ByteBuffer.wrap(bytes(20))));
            assertTrue(
                    buffer.getMessage().contains("gs://b/k")
                            && buffer.getMessage().contains("412"),
                    buffer.getMessage());
            Path small = Files.write(dir.resolve("small"), bytes(1000));
            assertThrows(ObjectExistsException.class, () -> store.create("k", small));

            Path big = Files.write(dir.resolve("big"), bytes(5 * MIB + 3));
            StoredObject resumable = store.create("big", big);
            assertTrue(resumable.createPrecondition());
            assertEquals(5 * MIB + 3, resumable.size());
            ObjectExistsException again = assertThrows(ObjectExistsException.class, () -> store.create("big", big));
            assertTrue(again.getMessage().contains("gs://b/big"), again.getMessage());
            ObjectExistsException overSmall = assertThrows(ObjectExistsException.class, () -> store.create("k", big));
            assertTrue(overSmall.getMessage().contains("gs://b/k"), overSmall.getMessage());

            assertArrayEquals(bytes(10), readAll(store, "k", Optional.empty()));
            assertEquals(
                    first.version(),
                    store.head("k", Optional.empty()).orElseThrow().version());
            assertEquals(
                    resumable.version(),
                    store.head("big", Optional.empty()).orElseThrow().version());
        }
    }

    @Test
    void aVersionedBucketReadsOldGenerationsAfterAnOverwriteAndADelete(@TempDir Path dir) throws Exception {
        fixture.createBucket("v", true, null);
        try (ObjectStore store = open("v")) {
            StoredObject first = store.put("k", ByteBuffer.wrap(bytes(100)));
            StoredObject second = store.put("k", Files.write(dir.resolve("big"), bytes(3 * MIB)));
            assertFalse(first.createPrecondition());
            assertNotEquals(first.version(), second.version());
            assertArrayEquals(bytes(100), readAll(store, "k", first.version()));
            assertArrayEquals(bytes(3 * MIB), readAll(store, "k", Optional.empty()));
            try (InputStream in = store.read("k", first.version(), 10, 19)) {
                assertArrayEquals(Arrays.copyOfRange(bytes(100), 10, 20), in.readAllBytes());
            }
            StoredObject old = store.head("k", first.version()).orElseThrow();
            assertEquals(100, old.size());
            assertEquals(first.version(), old.version());
            assertEquals(
                    3 * MIB, store.head("k", Optional.empty()).orElseThrow().size());

            store.delete("k");
            assertEquals(Optional.empty(), store.head("k", Optional.empty()));
            assertThrows(RemoteResourceNotFoundException.class, () -> store.read("k"));
            assertArrayEquals(bytes(3 * MIB), readAll(store, "k", second.version()));

            RemoteResourceNotFoundException none =
                    assertThrows(RemoteResourceNotFoundException.class, () -> store.read("k", Optional.of("12345")));
            assertTrue(
                    none.getMessage().contains("gs://v/k") && none.getMessage().contains("12345"), none.getMessage());
            assertThrows(RemoteResourceNotFoundException.class, () -> store.read("k", Optional.of("latest")));
            assertEquals(Optional.empty(), store.head("k", Optional.of("12345")));
            assertEquals(Optional.empty(), store.head("k", Optional.of("latest")));
            StoreProtection protection = store.protection();
            assertTrue(protection.versioned());
            assertEquals(RetentionMode.NONE, protection.mode());
        }
    }

    @Test
    void anUnversionedBucketKeepsOnlyTheLatestGeneration() throws Exception {
        fixture.createBucket("b", false, null);
        try (ObjectStore store = open("b")) {
            StoredObject first = store.put("k", ByteBuffer.wrap(bytes(1)));
            store.put("k", ByteBuffer.wrap(bytes(2)));
            assertEquals(Optional.empty(), store.head("k", first.version()));
            assertThrows(RemoteResourceNotFoundException.class, () -> store.read("k", first.version()));
            assertEquals(Optional.empty(), store.head("none", Optional.empty()));
            assertEquals(
                    StoreProtection.none("gs://b", "no retention policy, object versioning off"), store.protection());
            StoredObject head = store.head("k", Optional.empty()).orElseThrow();
            assertEquals(RetentionMode.NONE, head.retention());
            assertEquals(Optional.empty(), head.retainUntil());
            assertEquals("gs://b", store.location());
            assertEquals(List.of(), store.incompleteUploads(""));
        }
    }

    @Test
    void aListingComesOnePageAtATime() throws Exception {
        fixture.createBucket("b", false, null);
        try (ObjectStore store = open("b")) {
            for (int i = 0; i < 1003; i++) {
                store.put(String.format("p/%04d", i), ByteBuffer.wrap(bytes(i % 7)));
            }
            store.put("q", ByteBuffer.wrap(bytes(1)));
            ObjectListing first = store.list("p/", Optional.empty());
            assertEquals(1000, first.objects().size());
            assertTrue(first.nextPageToken().isPresent());
            StoredObject five = first.objects().get(5);
            assertEquals("p/0005", five.key());
            assertEquals(5, five.size());
            assertEquals(store.head("p/0005", Optional.empty()).orElseThrow().version(), five.version());
            assertTrue(five.etag().isPresent());
            ObjectListing last = store.list("p/", first.nextPageToken());
            assertEquals(List.of("p/1000", "p/1001", "p/1002"), GcsObjectStoreIT.keys(last.objects()));
            assertEquals(Optional.empty(), last.nextPageToken());
            assertEquals(List.of(), store.list("none/", Optional.empty()).objects());
        }
    }

    @Test
    void aLockedRetentionPolicyIsCompliance() throws Exception {
        fixture.createBucket("locked", false, HOUR);
        admin.lockRetentionPolicy(admin.get("locked"), Storage.BucketTargetOption.metagenerationMatch());
        try (ObjectStore store = open("locked")) {
            StoreProtection protection = store.protection();
            assertEquals(RetentionMode.COMPLIANCE, protection.mode());
            assertEquals(Optional.of(HOUR), protection.defaultRetention());
            assertEquals("retention policy 1 hour, locked, object versioning off", protection.detail());

            Instant before = Instant.now();
            StoredObject created = store.create("k", ByteBuffer.wrap(bytes(10)));
            assertRetained(RetentionMode.COMPLIANCE, before, created);
            assertRetained(
                    RetentionMode.COMPLIANCE,
                    before,
                    store.head("k", Optional.empty()).orElseThrow());
            assertRetained(
                    RetentionMode.COMPLIANCE,
                    before,
                    store.list("", Optional.empty()).objects().getFirst());

            RemoteStorageException delete = assertThrows(RemoteStorageException.class, () -> store.delete("k"));
            assertTrue(
                    delete.getMessage().contains("delete of gs://locked/k")
                            && delete.getMessage().contains("403")
                            && delete.getMessage().contains("retention"),
                    delete.getMessage());
            RemoteStorageException overwrite =
                    assertThrows(RemoteStorageException.class, () -> store.put("k", ByteBuffer.wrap(bytes(20))));
            assertTrue(
                    overwrite.getMessage().contains("gs://locked/k")
                            && overwrite.getMessage().contains("403"),
                    overwrite.getMessage());
            assertArrayEquals(bytes(10), readAll(store, "k", Optional.empty()));
        }
    }

    @Test
    void anUnlockedRetentionPolicyIsGovernanceUntilItIsRemoved() throws Exception {
        fixture.createBucket("unlocked", false, HOUR);
        try (ObjectStore store = open("unlocked")) {
            StoreProtection protection = store.protection();
            assertEquals(RetentionMode.GOVERNANCE, protection.mode());
            assertEquals(Optional.of(HOUR), protection.defaultRetention());
            assertEquals("retention policy 1 hour, not locked, object versioning off", protection.detail());
            Instant before = Instant.now();
            assertRetained(RetentionMode.GOVERNANCE, before, store.create("k", ByteBuffer.wrap(bytes(10))));
            assertThrows(RemoteStorageException.class, () -> store.delete("k"));

            // Unlocked, the policy can be removed: then nothing holds the object any more.
            Bucket bucket = admin.get("unlocked");
            admin.update(bucket.toBuilder().setRetentionPeriodDuration(null).build());
            assertEquals(RetentionMode.NONE, store.protection().mode());
            StoredObject released = store.head("k", Optional.empty()).orElseThrow();
            assertEquals(RetentionMode.NONE, released.retention());
            assertEquals(Optional.empty(), released.retainUntil());
            store.delete("k");
            assertEquals(Optional.empty(), store.head("k", Optional.empty()));
        }
    }

    @Test
    void theProtectionOfAMissingBucketIsAnErrorNamingIt() throws Exception {
        fixture.createBucket("b", false, null);
        try (ObjectStore store = open("b")) {
            admin.delete("b");
            RemoteStorageException e = assertThrows(RemoteStorageException.class, store::protection);
            assertTrue(
                    e.getMessage().contains("\"b\"")
                            && e.getMessage().contains("storage.buckets.get")
                            && e.getMessage().contains("does not exist"),
                    e.getMessage());
        }
    }

    @Test
    void openingAMissingBucketFailsItsAccessCheck() {
        RemoteStorageException e = assertThrows(RemoteStorageException.class, () -> open("no-such-bucket"));
        assertTrue(
                e.getMessage().contains("\"no-such-bucket\"") && e.getMessage().contains("does not exist"),
                e.getMessage());
    }

    private ObjectStore open(String bucket) throws RemoteStorageException {
        return ObjectStores.open("gcs", FixtureTier.storeSettings(fixture, bucket));
    }

    private static void assertRetained(RetentionMode mode, Instant before, StoredObject object) {
        assertEquals(mode, object.retention(), object.toString());
        Instant until = object.retainUntil().orElseThrow();
        assertFalse(until.isBefore(before.plus(HOUR).minusSeconds(1)), until + " is before " + before + " + 1 hour");
        assertFalse(until.isAfter(Instant.now().plus(HOUR).plusSeconds(1)), until + " is after now + 1 hour");
    }

    private static byte[] readAll(ObjectStore store, String key, Optional<String> version) throws Exception {
        try (InputStream in = store.read(key, version)) {
            return in.readAllBytes();
        }
    }
}
