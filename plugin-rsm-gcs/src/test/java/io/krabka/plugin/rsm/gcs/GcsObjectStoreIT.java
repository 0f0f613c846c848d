package io.krabka.plugin.rsm.gcs;

import static io.krabka.plugin.rsm.gcs.FixtureTier.MIB;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.fixture.gcs.GcsFixture;
import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.ObjectStores;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GCS object store through the real client on the fixture: uploads of both kinds, ranges, listing, failures. */
class GcsObjectStoreIT {
    private GcsFixture fixture;
    private ObjectStore store;

    @BeforeEach
    void start() throws Exception {
        fixture = GcsFixture.start();
        fixture.createBucket("b", false, null);
        store = ObjectStores.open("gcs", FixtureTier.storeSettings(fixture, "b"));
    }

    @AfterEach
    void stop() throws IOException {
        store.close();
        fixture.close();
    }

    @Test
    void filesBelowAndAboveTheResumableThresholdRoundTrip(@TempDir Path dir) throws Exception {
        for (int size : new int[] {0, 1, 2 * MIB - 1, 2 * MIB, 5 * MIB + 17}) {
            byte[] bytes = bytes(size);
            store.put("f/" + size, Files.write(dir.resolve("f" + size), bytes));
            try (InputStream in = store.read("f/" + size)) {
                assertArrayEquals(bytes, in.readAllBytes(), "object of " + size + " bytes");
            }
        }
    }

    @Test
    void anUploadReplacesTheObjectAndABufferIsNotMoved() throws Exception {
        store.put("k", ByteBuffer.wrap(bytes(100)));
        ByteBuffer second = ByteBuffer.wrap(bytes(7));
        store.put("k", second);
        assertEquals(0, second.position());
        try (InputStream in = store.read("k")) {
            assertArrayEquals(bytes(7), in.readAllBytes());
        }
    }

    @Test
    void rangesAreInclusiveAndClippedToTheEnd() throws Exception {
        byte[] bytes = bytes(100_000);
        store.put("r", ByteBuffer.wrap(bytes));
        try (InputStream in = store.read("r", 2, 5)) {
            assertArrayEquals(Arrays.copyOfRange(bytes, 2, 6), in.readAllBytes());
        }
        try (InputStream in = store.read("r", 99_990, 1_000_000)) {
            assertArrayEquals(Arrays.copyOfRange(bytes, 99_990, 100_000), in.readAllBytes());
        }
        try (InputStream in = store.read("r", 100_000, 100_010)) {
            assertEquals(0, in.readAllBytes().length);
        }
        assertThrows(IllegalArgumentException.class, () -> store.read("r", 5, 4));
    }

    @Test
    void aMissingObjectIsNotFoundAndItsDeleteSucceeds() throws Exception {
        RemoteResourceNotFoundException missing =
                assertThrows(RemoteResourceNotFoundException.class, () -> store.read("none", 0, 10));
        assertTrue(missing.getMessage().contains("gs://b/none"), missing.getMessage());
        store.delete("none");
        store.put("d", ByteBuffer.wrap(bytes(1)));
        store.delete("d");
        store.delete("d");
        assertThrows(RemoteResourceNotFoundException.class, () -> store.read("d"));
    }

    @Test
    void aListingReadsEveryPage() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1003; i++) {
            String key = String.format("p/%04d", i);
            store.put(key, ByteBuffer.wrap(new byte[0]));
            expected.add(key);
        }
        store.put("q/0", ByteBuffer.wrap(new byte[0]));
        assertEquals(expected, keys(store.listAll("p/")));
    }

    @Test
    void aMissingBucketStopsConfigurationWithOneLineNamingItAndTheOperation() {
        RemoteStorageManager rsm = new GcsRemoteStorageManagerProvider().create();
        ConfigException e = assertThrows(
                ConfigException.class, () -> rsm.configure(FixtureTier.settings(fixture, "no-such-bucket", "")));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(
                e.getMessage().contains("\"no-such-bucket\"")
                        && e.getMessage().contains("storage.objects.list")
                        && e.getMessage().contains("does not exist"),
                e.getMessage());
    }

    @Test
    void aResumableUploadBrokenInTheMiddleLeavesNoObject(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("big"), bytes(6 * MIB));
        fixture.faults().failUploadChunks(3L * MIB, 503, Integer.MAX_VALUE);
        RemoteStorageException e = assertThrows(RemoteStorageException.class, () -> store.put("big", file));
        assertTrue(e.getMessage().contains("gs://b/big") && e.getMessage().contains("503"), e.getMessage());
        assertTrue(fixture.faults().injected() >= 1);
        assertEquals(List.of(), store.listAll(""));
        assertThrows(RemoteResourceNotFoundException.class, () -> store.read("big"));
    }

    @Test
    void aResumableUploadBrokenInTheMiddleKeepsTheEarlierObject(@TempDir Path dir) throws Exception {
        byte[] earlier = bytes(10);
        store.put("big", ByteBuffer.wrap(earlier));
        Path file = Files.write(dir.resolve("big"), bytes(6 * MIB));
        fixture.faults().failUploadChunks(3L * MIB, 503, Integer.MAX_VALUE);
        assertThrows(RemoteStorageException.class, () -> store.put("big", file));
        try (InputStream in = store.read("big")) {
            assertArrayEquals(earlier, in.readAllBytes());
        }
    }

    @Test
    void aSegmentWhoseLogUploadBreaksIsNotFetchable(@TempDir Path dir) throws Exception {
        ObjectStoreRemoteStorageManager rsm = new ObjectStoreRemoteStorageManager(GcsTier::open);
        rsm.configure(FixtureTier.settings(fixture, "b", "tier"));
        try (rsm) {
            Segment segment = Segment.write(dir, 6 * MIB);
            fixture.faults().failUploadChunks(3L * MIB, 503, Integer.MAX_VALUE);
            assertThrows(
                    RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment.metadata(), segment.data()));
            fixture.faults().clear();
            assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchLogSegment(segment.metadata(), 0));
            assertEquals(List.of(), store.listAll("tier/"));
        }
    }

    @Test
    void retriedFailuresRecover(@TempDir Path dir) throws Exception {
        byte[] bytes = bytes(6 * MIB);
        Path file = Files.write(dir.resolve("big"), bytes);
        fixture.faults().failUploadChunks(3L * MIB, 503, 2);
        store.put("big", file);
        fixture.faults().failDownloads(503, 2);
        try (InputStream in = store.read("big")) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
        assertEquals(4, fixture.faults().injected());
    }

    static List<String> keys(List<StoredObject> objects) {
        return objects.stream().map(StoredObject::key).toList();
    }

    static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
