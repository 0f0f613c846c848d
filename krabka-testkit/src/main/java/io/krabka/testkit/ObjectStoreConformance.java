package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance kit for {@link ObjectStore} implementations: the rules the write-once archive, {@code krabka
 * verify} and {@code krabka restore} rely on, as JUnit 5 tests that run against any store.
 *
 * <p>Subclass it in a test of the plugin, implement {@link #createObjectStore(Path)} and declare the optional
 * behaviours in {@link #capabilities()}. {@code required_…} rules hold for every store, {@code optional_…} rules for
 * stores that declare the capability they check; a rule that does not apply ends aborted with a message starting
 * {@code NOT APPLICABLE:}, never as a pass.
 */
public abstract class ObjectStoreConformance {

    private static final int MIB = 1 << 20;

    @TempDir
    private Path scratch;

    private ObjectStore store;
    private String prefix;

    /** For subclasses. */
    protected ObjectStoreConformance() {}

    /**
     * The store under test, configured, checked and empty under {@link #keyPrefix()}; called before every rule with
     * a new directory, and closed after it. A store elsewhere than the directory (a bucket) derives a fresh prefix
     * from it or is emptied by the subclass.
     */
    protected abstract ObjectStore createObjectStore(Path scratch) throws Exception;

    /** The optional behaviours the store has; by default {@link ObjectStoreCapability#defaults()}. */
    protected Set<ObjectStoreCapability> capabilities() {
        return ObjectStoreCapability.defaults();
    }

    /**
     * The size of the file that the rules write as a large object, large enough that a store writing in parts
     * (S3 multipart, GCS resumable) does so with its settings; 9 MiB by default.
     */
    protected int largeObjectBytes() {
        return 9 * MIB;
    }

    /** How many objects the listing rule writes; more than one page of the store's listings. 1,050 by default. */
    protected int listingObjects() {
        return 1_050;
    }

    /**
     * The prefix every key of a rule starts with, ending with {@code /}: by default one made from the scratch
     * directory's name, so that rules on a shared bucket never see each other's objects.
     */
    protected String keyPrefix() {
        return "kit/" + scratch.getFileName() + "/";
    }

    @BeforeEach
    final void open() throws Exception {
        prefix = keyPrefix();
        store = createObjectStore(scratch);
    }

    @AfterEach
    final void closeStore() throws IOException {
        if (store != null) {
            store.close();
        }
    }

    @Test
    final void required_putThenReadWholeAndByRange() throws Exception {
        byte[] bytes = PatternBytes.bytes(1, 0, 1000);
        StoredObject stored = store.put(key("a"), ByteBuffer.wrap(bytes));
        assertEquals(key("a"), stored.key());
        assertEquals(1000, stored.size());
        assertArrayEquals(bytes, readAll(store.read(key("a"))));
        assertArrayEquals(Arrays.copyOfRange(bytes, 10, 21), readAll(store.read(key("a"), 10, 20)));
        assertArrayEquals(
                Arrays.copyOfRange(bytes, 990, 1000),
                readAll(store.read(key("a"), 990, 5000)),
                "a range past the end is clipped to the last byte");
        assertArrayEquals(
                new byte[0], readAll(store.read(key("a"), 1000, 1010)), "a range that starts at the end is empty");
    }

    @Test
    final void required_aBufferIsWrittenWithoutMovingItsPosition() throws Exception {
        ByteBuffer buffer = ByteBuffer.wrap(PatternBytes.bytes(2, 0, 64));
        buffer.position(8);
        store.put(key("p"), buffer);
        assertEquals(8, buffer.position());
        assertEquals(56, store.head(key("p"), Optional.empty()).orElseThrow().size());
    }

    @Test
    final void required_putReplacesAndTheLatestIsRead() throws Exception {
        store.put(key("r"), ByteBuffer.wrap(PatternBytes.bytes(3, 0, 100)));
        byte[] second = PatternBytes.bytes(4, 0, 50);
        store.put(key("r"), ByteBuffer.wrap(second));
        assertArrayEquals(second, readAll(store.read(key("r"))));
        assertEquals(50, store.head(key("r"), Optional.empty()).orElseThrow().size());
    }

    @Test
    final void required_aLargeFileIsStoredAndReadBack() throws Exception {
        Path file = largeFile();
        StoredObject stored = store.create(key("large"), file);
        assertEquals(Files.size(file), stored.size());
        assertEquals(
                Files.size(file),
                store.head(key("large"), stored.version()).orElseThrow().size());
        byte[] digest =
                PatternBytes.digest(store.read(key("large"), stored.version())).sha256();
        assertArrayEquals(PatternBytes.digest(11, 0, largeObjectBytes()), digest, "the large object read back");
    }

    @Test
    final void required_createWritesAnAbsentKey() throws Exception {
        byte[] bytes = PatternBytes.bytes(5, 0, 200);
        StoredObject stored = store.create(key("c"), ByteBuffer.wrap(bytes));
        assertEquals(200, stored.size());
        assertArrayEquals(bytes, readAll(store.read(key("c"), stored.version())));
    }

    @Test
    final void optional_createRefusesAnExistingKey() throws Exception {
        Verdicts.requireCapability(
                capabilities().contains(ObjectStoreCapability.CREATE_REFUSES_EXISTING),
                ObjectStoreCapability.CREATE_REFUSES_EXISTING);
        byte[] first = PatternBytes.bytes(6, 0, 100);
        store.create(key("once"), ByteBuffer.wrap(first));
        assertThrows(
                ObjectExistsException.class,
                () -> store.create(key("once"), ByteBuffer.wrap(PatternBytes.bytes(7, 0, 9))));
        Path file = Files.write(scratch.resolve("small"), PatternBytes.bytes(8, 0, 10));
        assertThrows(ObjectExistsException.class, () -> store.create(key("once"), file));
        assertThrows(
                ObjectExistsException.class,
                () -> store.create(key("once"), largeFile()),
                "a create written in parts refuses an existing key too");
        assertArrayEquals(first, readAll(store.read(key("once"))), "a refused create leaves the object as it was");
    }

    @Test
    final void required_createPreconditionIsReportedForSingleRequestCreates() throws Exception {
        Verdicts.requireCapability(
                capabilities().contains(ObjectStoreCapability.CREATE_REFUSES_EXISTING),
                ObjectStoreCapability.CREATE_REFUSES_EXISTING);
        assertTrue(store.create(key("pre"), ByteBuffer.wrap(new byte[3])).createPrecondition());
        assertFalse(store.put(key("plain"), ByteBuffer.wrap(new byte[3])).createPrecondition());
    }

    @Test
    final void required_aMissingObjectIsAbsentAndNotFound() throws Exception {
        assertEquals(Optional.empty(), store.head(key("missing"), Optional.empty()));
        assertThrows(RemoteResourceNotFoundException.class, () -> readAll(store.read(key("missing"))));
        assertThrows(RemoteResourceNotFoundException.class, () -> readAll(store.read(key("missing"), 0, 10)));
    }

    @Test
    final void required_listingPagesCoverEveryKeyOnceInOrder() throws Exception {
        int count = listingObjects();
        List<String> expected = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(16)) {
            List<Future<StoredObject>> writes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String k = key(String.format("list/%05d", i));
                expected.add(k);
                writes.add(threads.submit(() -> store.put(k, ByteBuffer.wrap(new byte[1]))));
            }
            for (Future<StoredObject> write : writes) {
                write.get();
            }
        }
        store.put(key("listing"), ByteBuffer.wrap(new byte[2]));
        List<String> listed = new ArrayList<>();
        int pages = 0;
        Optional<String> token = Optional.empty();
        do {
            ObjectListing page = store.list(key("list/"), token);
            page.objects().forEach(o -> listed.add(o.key()));
            token = page.nextPageToken();
            pages++;
        } while (token.isPresent());
        assertEquals(expected, listed, "every key under the prefix, once, in order; none of a longer sibling prefix");
        assertTrue(pages > 1, "the listing of " + count + " objects came in one page: raise listingObjects()");
        assertEquals(1, store.listAll(key("list/00000")).size());
    }

    @Test
    final void required_listingGivesSizes() throws Exception {
        store.put(key("s/one"), ByteBuffer.wrap(new byte[7]));
        List<StoredObject> listed = store.listAll(key("s/"));
        assertEquals(1, listed.size());
        assertEquals(7, listed.getFirst().size());
    }

    @Test
    final void optional_versionsAreKeptAndReadByVersion() throws Exception {
        Verdicts.requireCapability(
                capabilities().contains(ObjectStoreCapability.VERSIONS), ObjectStoreCapability.VERSIONS);
        byte[] first = PatternBytes.bytes(9, 0, 30);
        StoredObject v1 = store.put(key("v"), ByteBuffer.wrap(first));
        StoredObject v2 = store.put(key("v"), ByteBuffer.wrap(PatternBytes.bytes(10, 0, 40)));
        assertTrue(v1.version().isPresent() && v2.version().isPresent(), "a versioned store names its versions");
        assertNotEquals(v1.version(), v2.version());
        assertArrayEquals(first, readAll(store.read(key("v"), v1.version())));
        assertArrayEquals(Arrays.copyOfRange(first, 5, 10), readAll(store.read(key("v"), v1.version(), 5, 9)));
        assertEquals(30, store.head(key("v"), v1.version()).orElseThrow().size());
        assertEquals(
                v2.version(),
                store.head(key("v"), Optional.empty()).orElseThrow().version());
    }

    @Test
    final void required_protectionNamesTheStore() throws RemoteStorageException {
        StoreProtection protection = store.protection();
        assertEquals(store.location(), protection.location());
        assertFalse(protection.detail().isBlank());
    }

    @Test
    final void optional_deleteRemovesAndIsIdempotent() throws Exception {
        Verdicts.requireCapability(capabilities().contains(ObjectStoreCapability.DELETE), ObjectStoreCapability.DELETE);
        store.put(key("d"), ByteBuffer.wrap(new byte[1]));
        store.delete(key("d"));
        assertEquals(Optional.empty(), store.head(key("d"), Optional.empty()));
        store.delete(key("d"));
    }

    /** The store under test, for rules a subclass adds. */
    protected final ObjectStore store() {
        return store;
    }

    /** A key of this rule. */
    protected final String key(String name) {
        return prefix + name;
    }

    private Path largeFile() throws IOException {
        Path file = scratch.resolve("large-" + largeObjectBytes());
        if (!Files.exists(file)) {
            PatternBytes.write(file, 11, largeObjectBytes());
        }
        return file;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
