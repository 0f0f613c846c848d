package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.ObjectStores;
import io.krabka.testservers.S3ProxyBuckets;
import io.krabka.testservers.S3Server;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The {@code s3} object store on S3Proxy, which enforces {@code If-None-Match: *} on PutObject and on
 * CompleteMultipartUpload in plain and versioned buckets: creates refuse an existing key in both, through the
 * store's HEAD before an upload in parts and through the service's condition itself.
 */
class S3ObjectStoreS3ProxyIT {
    @RegisterExtension
    static final S3ProxyBuckets PLAIN = S3ProxyBuckets.plain();

    @RegisterExtension
    static final S3ProxyBuckets VERSIONED = S3ProxyBuckets.versioned();

    @TempDir
    Path local;

    @Test
    void createRefusesAnExistingKeyInAPlainBucket() throws Exception {
        createRefusesAnExistingKey(PLAIN);
    }

    @Test
    void createRefusesAnExistingKeyInAVersionedBucket() throws Exception {
        createRefusesAnExistingKey(VERSIONED);
    }

    private void createRefusesAnExistingKey(S3ProxyBuckets bucket) throws Exception {
        Path big = local.resolve("big");
        Files.write(big, bytes(1, (6 << 20) + 7));
        Path small = Files.write(local.resolve("small"), bytes(2, 10));
        byte[] first = bytes(3, 100);
        try (ObjectStore store = open(bucket)) {
            assertTrue(store.create("once", ByteBuffer.wrap(first)).createPrecondition());
            ObjectExistsException single =
                    assertThrows(ObjectExistsException.class, () -> store.create("once", ByteBuffer.wrap(bytes(4, 5))));
            assertTrue(
                    single.getMessage().startsWith("PutObject of s3://" + bucket.bucket() + "/once refused: "),
                    single.getMessage());
            assertFalse(single.getMessage().contains("\n"), single.getMessage());
            assertThrows(ObjectExistsException.class, () -> store.create("once", small));
            ObjectExistsException inParts = assertThrows(ObjectExistsException.class, () -> store.create("once", big));
            assertTrue(inParts.getMessage().contains("s3://" + bucket.bucket() + "/once"), inParts.getMessage());
            assertArrayEquals(first, S3ObjectStoreRadosgwIT.readAll(store.read("once")));
            assertEquals(100, store.head("once", Optional.empty()).orElseThrow().size());
            assertEquals(List.of(), store.incompleteUploads("once"));
        }
    }

    @Test
    void theCompletionItselfIsRefusedForAKeyWrittenDuringTheUpload() throws Exception {
        theCompletionItselfIsRefused(PLAIN);
        theCompletionItselfIsRefused(VERSIONED);
    }

    /**
     * Past the store's HEAD, as when another writer takes the key during the upload: the upload in parts runs
     * against a key that already holds an object, the service refuses the conditional completion, and the upload is
     * aborted.
     */
    private void theCompletionItselfIsRefused(S3ProxyBuckets bucket) throws Exception {
        Path big = local.resolve("race");
        Files.write(big, bytes(5, (6 << 20) + 9));
        S3Server server = bucket.server();
        try (S3Client s3 = server.client()) {
            s3.putObject(b -> b.bucket(bucket.bucket()).key("raced"), RequestBody.fromString("taken"));
            MultipartUpload upload = new MultipartUpload(s3, bucket.bucket(), Optional.empty(), true);
            ObjectExistsException e = assertThrows(
                    ObjectExistsException.class,
                    () -> upload.upload(
                            "raced", big, Files.size(big), new MultipartPolicy(6L << 20, 5L << 20, 2), true));
            assertTrue(
                    e.getMessage().startsWith("CompleteMultipartUpload of s3://" + bucket.bucket() + "/raced refused"),
                    e.getMessage());
            assertEquals(
                    "taken",
                    s3.getObjectAsBytes(b -> b.bucket(bucket.bucket()).key("raced"))
                            .asUtf8String());
            assertEquals(
                    List.of(),
                    s3.listMultipartUploads(b -> b.bucket(bucket.bucket()).prefix("raced"))
                            .uploads(),
                    "the refused upload is aborted");
        }
    }

    @Test
    void aStartedUploadIsListedAsIncomplete() throws Exception {
        try (ObjectStore store = open(PLAIN);
                S3Client s3 = PLAIN.server().client()) {
            String uploadId = s3.createMultipartUpload(
                            b -> b.bucket(PLAIN.bucket()).key("incomplete/one"))
                    .uploadId();
            List<IncompleteUpload> uploads = store.incompleteUploads("incomplete/");
            assertEquals(1, uploads.size(), uploads.toString());
            assertEquals("incomplete/one", uploads.getFirst().key());
            assertEquals(uploadId, uploads.getFirst().uploadId());
            s3.abortMultipartUpload(
                    b -> b.bucket(PLAIN.bucket()).key("incomplete/one").uploadId(uploadId));
            assertEquals(List.of(), store.incompleteUploads("incomplete/"));
        }
    }

    @Test
    void protectionIsVersioningWithoutObjectLock() throws Exception {
        assertProtection(PLAIN, false, "versioning never enabled, no Object Lock");
        assertProtection(VERSIONED, true, "versioning Enabled, no Object Lock");
    }

    private static void assertProtection(S3ProxyBuckets bucket, boolean versioned, String detail) throws Exception {
        try (ObjectStore store = open(bucket)) {
            StoreProtection protection = store.protection();
            assertEquals(versioned, protection.versioned());
            assertEquals(RetentionMode.NONE, protection.mode());
            assertEquals(detail, protection.detail());
        }
    }

    private static ObjectStore open(S3ProxyBuckets bucket) throws RemoteStorageException {
        return ObjectStores.open("s3", S3Settings.store(bucket.server(), bucket.bucket()));
    }

    private static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
