package io.krabka.objectstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.ForwardingObjectStore;
import io.krabka.testkit.ObjectStores;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the kit does not ask: the upload order, the access check at configure, and wrapped client errors. */
class ObjectStoreRemoteStorageManagerTest {
    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "t", 3);

    @TempDir
    Path dir;

    @Test
    void theLogIsUploadedLastAndTheTxnIndexOnlyWhenPresent() throws Exception {
        List<String> uploads = Collections.synchronizedList(new ArrayList<>());
        ObjectStore store = local(Files.createDirectory(dir.resolve("bucket")));
        ObjectStore recording = new ForwardingObjectStore(store) {
            @Override
            public StoredObject put(String key, Path file) throws RemoteStorageException {
                uploads.add(key);
                return super.put(key, file);
            }

            @Override
            public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
                uploads.add(key);
                return super.put(key, bytes);
            }
        };
        try (ObjectStoreRemoteStorageManager rsm = configured(recording)) {
            RemoteLogSegmentMetadata segment = segment();
            rsm.copyLogSegmentData(segment, data(Optional.empty()));
            assertEquals(5, uploads.size(), uploads.toString());
            assertTrue(uploads.getLast().endsWith(".log"), "the log goes last: " + uploads);
            assertTrue(uploads.stream().noneMatch(k -> k.endsWith(".txnindex")), uploads.toString());
            assertTrue(
                    uploads.stream().allMatch(k -> k.startsWith("p/t-3-" + PARTITION.topicId() + "/")),
                    uploads.toString());
            try (InputStream in = rsm.fetchIndex(segment, IndexType.LEADER_EPOCH)) {
                assertEquals("0\n1\n0 0\n", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void aStoreThatRefusesAccessStopsConfigureWithItsOneLineMessage() throws Exception {
        ObjectStore refusing = new ForwardingObjectStore(local(dir)) {
            @Override
            public void checkAccess() throws RemoteStorageException {
                throw new RemoteStorageException("bucket \"missing\" cannot be used: HeadBucket failed");
            }
        };
        ObjectStoreRemoteStorageManager rsm = new ObjectStoreRemoteStorageManager(
                configs -> new ObjectStoreRemoteStorageManager.Tier(refusing, new SegmentObjectKeys("p")));
        ConfigException e = assertThrows(ConfigException.class, () -> rsm.configure(Map.of()));
        assertTrue(e.getMessage().contains("missing") && !e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void uncheckedClientErrorsReachTheCallerAsStorageErrors() throws Exception {
        IllegalStateException bug = new IllegalStateException("client library bug");
        ObjectStore failing = new ForwardingObjectStore(local(Files.createDirectory(dir.resolve("b")))) {
            @Override
            public InputStream read(String key, Optional<String> version) {
                throw bug;
            }
        };
        try (ObjectStoreRemoteStorageManager rsm = configured(failing)) {
            RemoteStorageException e =
                    assertThrows(RemoteStorageException.class, () -> rsm.fetchIndex(segment(), IndexType.OFFSET));
            assertInstanceOf(IllegalStateException.class, e.getCause());
        }
    }

    private static ObjectStoreRemoteStorageManager configured(ObjectStore store) {
        ObjectStoreRemoteStorageManager rsm = new ObjectStoreRemoteStorageManager(
                configs -> new ObjectStoreRemoteStorageManager.Tier(store, new SegmentObjectKeys("p")));
        rsm.configure(Map.of());
        return rsm;
    }

    private static RemoteLogSegmentMetadata segment() {
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(0, 0L);
        return new RemoteLogSegmentMetadata(RemoteLogSegmentId.generateNew(PARTITION), 0, 9, 0, 1, 0, 4, epochs, true);
    }

    private LogSegmentData data(Optional<Path> txnIndex) throws IOException {
        Path local = Files.createDirectories(dir.resolve("local"));
        return new LogSegmentData(
                Files.writeString(local.resolve("s.log"), "data"),
                Files.writeString(local.resolve("s.index"), ""),
                Files.writeString(local.resolve("s.timeindex"), ""),
                txnIndex,
                Files.writeString(local.resolve("s.snapshot"), ""),
                ByteBuffer.wrap("0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII)));
    }

    private static ObjectStore local(Path directory) throws RemoteStorageException {
        return ObjectStores.open("local", Map.of("dir", directory.toString()));
    }
}
