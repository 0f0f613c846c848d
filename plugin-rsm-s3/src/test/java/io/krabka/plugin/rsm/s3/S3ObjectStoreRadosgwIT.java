package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.ObjectStores;
import io.krabka.testservers.RadosgwBuckets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The {@code s3} object store on radosgw, in a bucket under Object Lock with a default COMPLIANCE retention of one
 * day: what the bucket enforces, as the store reports and meets it. Each test writes under a prefix of its own.
 */
class S3ObjectStoreRadosgwIT {
    @RegisterExtension
    static final RadosgwBuckets RGW = RadosgwBuckets.complianceLocked(1);

    @TempDir
    Path local;

    private ObjectStore store;
    private String prefix;

    @BeforeEach
    void open(TestInfo test) throws RemoteStorageException {
        store = ObjectStores.open("s3", S3Settings.store(RGW.server(), RGW.bucket()));
        prefix = test.getTestMethod().orElseThrow().getName() + "/";
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    @Test
    void protectionIsVersioningAndTheDefaultComplianceRetention() throws RemoteStorageException {
        StoreProtection protection = store.protection();
        assertEquals("s3://" + RGW.bucket(), protection.location());
        assertEquals("s3://" + RGW.bucket(), store.location());
        assertTrue(protection.versioned());
        assertEquals(RetentionMode.COMPLIANCE, protection.mode());
        assertEquals(Optional.of(Duration.ofDays(1)), protection.defaultRetention());
        assertEquals("versioning Enabled, Object Lock COMPLIANCE 1 day", protection.detail());
    }

    @Test
    void headReportsTheLockAndAnOverwriteKeepsTheOldVersionReadable() throws Exception {
        byte[] first = bytes(1, 300);
        byte[] second = bytes(2, 200);
        Instant before = Instant.now();
        StoredObject v1 = store.put(prefix + "k", ByteBuffer.wrap(first));
        StoredObject v2 = store.put(prefix + "k", ByteBuffer.wrap(second));
        assertTrue(v1.version().isPresent() && v1.etag().isPresent(), v1.toString());
        assertNotEquals(v1.version(), v2.version());

        StoredObject head = store.head(prefix + "k", v1.version()).orElseThrow();
        assertEquals(300, head.size());
        assertEquals(v1.version(), head.version());
        assertEquals(v1.etag(), head.etag());
        assertEquals(RetentionMode.COMPLIANCE, head.retention());
        Instant until = head.retainUntil().orElseThrow();
        assertTrue(
                !until.isBefore(before.plus(Duration.ofHours(23))) && until.isBefore(before.plus(Duration.ofHours(25))),
                "retained until " + until + ", a day after " + before);

        assertArrayEquals(second, readAll(store.read(prefix + "k")));
        assertArrayEquals(first, readAll(store.read(prefix + "k", v1.version())));
        assertArrayEquals(
                java.util.Arrays.copyOfRange(first, 10, 20), readAll(store.read(prefix + "k", v1.version(), 10, 19)));
        assertArrayEquals(new byte[0], readAll(store.read(prefix + "k", v1.version(), 300, 400)));
        assertEquals(
                v2.version(),
                store.head(prefix + "k", Optional.empty()).orElseThrow().version());
    }

    @Test
    void theDeleteOfALockedVersionIsRefusedInOneLineAndTheObjectStays() throws Exception {
        byte[] bytes = bytes(3, 50);
        StoredObject stored = store.put(prefix + "locked", ByteBuffer.wrap(bytes));
        RemoteStorageException e = assertThrows(RemoteStorageException.class, () -> store.delete(prefix + "locked"));
        assertFalse(e instanceof RemoteResourceNotFoundException, e.toString());
        String message = e.getMessage();
        assertTrue(
                message.startsWith("DeleteObject version " + stored.version().orElseThrow() + " of s3://" + RGW.bucket()
                        + "/" + prefix + "locked failed: "),
                message);
        assertTrue(message.contains("403"), message);
        assertFalse(message.contains("\n"), message);
        assertArrayEquals(bytes, readAll(store.read(prefix + "locked")));
    }

    @Test
    void aCreateInPartsIsReadBackWithItsLockAndRefusesAnExistingKey() throws Exception {
        Path file = local.resolve("big");
        Files.write(file, bytes(4, (6 << 20) + 123));
        StoredObject created = store.create(prefix + "big", file);
        assertTrue(created.createPrecondition());
        assertEquals(Files.size(file), created.size());
        assertTrue(created.version().isPresent() && created.etag().isPresent(), created.toString());
        assertEquals(RetentionMode.COMPLIANCE, created.retention());
        assertTrue(created.retainUntil().isPresent());
        assertArrayEquals(Files.readAllBytes(file), readAll(store.read(prefix + "big", created.version())));

        ObjectExistsException e = assertThrows(ObjectExistsException.class, () -> store.create(prefix + "big", file));
        assertTrue(e.getMessage().contains("s3://" + RGW.bucket() + "/" + prefix + "big"), e.getMessage());
        assertEquals(List.of(), store.incompleteUploads(prefix), "the refused create started no upload");
    }

    /**
     * Radosgw 16 ignores {@code If-None-Match: *} in a versioned bucket: a second single-PUT create of a key makes
     * a new version. The first stays, readable and locked: the retention, not the condition, guards here.
     */
    @Test
    void radosgwIgnoresTheCreateConditionHereAndTheRetentionKeepsTheFirst() throws Exception {
        byte[] first = bytes(5, 40);
        StoredObject v1 = store.create(prefix + "once", ByteBuffer.wrap(first));
        assertTrue(v1.createPrecondition());
        try {
            store.create(prefix + "once", ByteBuffer.wrap(bytes(6, 10)));
        } catch (ObjectExistsException refused) {
            // A radosgw that enforces the condition: all the better.
        }
        assertArrayEquals(first, readAll(store.read(prefix + "once", v1.version())));
        assertEquals(
                RetentionMode.COMPLIANCE,
                store.head(prefix + "once", v1.version()).orElseThrow().retention());
    }

    @Test
    void listsSizesAndEtagsAndIncompleteUploads() throws Exception {
        StoredObject a = store.put(prefix + "a", ByteBuffer.wrap(bytes(7, 5)));
        store.put(prefix + "b/c", ByteBuffer.wrap(bytes(8, 6)));
        List<StoredObject> listed = store.listAll(prefix);
        assertEquals(
                List.of(prefix + "a", prefix + "b/c"),
                listed.stream().map(StoredObject::key).toList());
        assertEquals(5, listed.getFirst().size());
        assertEquals(a.etag(), listed.getFirst().etag());
        assertEquals(Optional.empty(), store.list(prefix, Optional.empty()).nextPageToken());

        String uploadId;
        try (S3Client s3 = RGW.server().client()) {
            uploadId = s3.createMultipartUpload(b -> b.bucket(RGW.bucket()).key(prefix + "started"))
                    .uploadId();
        }
        List<IncompleteUpload> uploads = store.incompleteUploads(prefix);
        assertEquals(1, uploads.size(), uploads.toString());
        assertEquals(prefix + "started", uploads.getFirst().key());
        assertEquals(uploadId, uploads.getFirst().uploadId());
        assertTrue(uploads.getFirst().initiated().isPresent());
        assertEquals(List.of(), store.incompleteUploads(prefix + "other"));
    }

    @Test
    void missingObjectsAndVersionsAreAbsentAndNotFound() throws Exception {
        StoredObject stored = store.put(prefix + "here", ByteBuffer.wrap(bytes(9, 5)));
        assertEquals(Optional.empty(), store.head(prefix + "missing", Optional.empty()));
        assertThrows(RemoteResourceNotFoundException.class, () -> store.read(prefix + "missing"));
        assertThrows(RemoteResourceNotFoundException.class, () -> store.read(prefix + "missing", 0, 10));
        Optional<String> other = Optional.of("not-a-version-" + stored.version().orElseThrow());
        assertEquals(Optional.empty(), store.head(prefix + "here", other));
        assertThrows(RemoteResourceNotFoundException.class, () -> store.read(prefix + "here", other));
        store.delete(prefix + "missing");
    }

    private static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
