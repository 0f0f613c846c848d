package io.krabka.plugin.worm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.chain.WormChainRecord;
import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.archive.manifest.Sha256Digest;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteFetchRefusedException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write-once archive over the real local store: what a copy writes, reads back, keeps and refuses. */
class WormRemoteStorageManagerTest {
    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "orders", 2);

    @TempDir
    Path dir;

    private TestArchive archive;
    private WormRemoteStorageManager rsm;

    @BeforeEach
    void open() throws Exception {
        archive = new TestArchive(dir);
        rsm = archive.open(archive.settings());
    }

    @AfterEach
    void close() throws Exception {
        rsm.close();
        archive.store.close();
    }

    @Test
    void aCopyWritesEveryArtifactOnceAndSealsASignedManifestThatNamesThem() throws Exception {
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 4000);
        LogSegmentData data = archive.files(segment, 1);
        Optional<CustomMetadata> receipt = rsm.copyLogSegmentData(segment, data);

        WormChainRecord record = WormChainRecord.decode(receipt.orElseThrow().value());
        assertTrue(record.isReceipt());
        assertEquals(0, record.seq());
        assertTrue(
                receipt.get().size() <= WormConfig.RECEIPT_MAX_BYTES,
                receipt.get().size() + " bytes");
        SegmentManifest manifest = manifest(segment);
        assertEquals(record.head().orElseThrow(), manifest.body().head());
        assertEquals("test-key", manifest.signature().orElseThrow().keyId());
        assertEquals(
                List.of("index", "timeindex", "snapshot", "leader_epoch_checkpoint", "log"),
                manifest.body().objects().stream().map(ObjectEntry::suffix).toList(),
                "the log last");
        for (ObjectEntry entry : manifest.body().objects()) {
            assertTrue(entry.createPrecondition(), entry.key() + " was written create-only");
            try (InputStream in = archive.store.read(entry.key())) {
                assertEquals(entry.sha256(), Sha256Digest.of(in.readAllBytes()), entry.key());
            }
        }
        assertArrayEquals(
                Files.readAllBytes(data.logSegment()),
                rsm.fetchLogSegment(archive.finished(segment, receipt), 0).readAllBytes());
        assertEquals(1, archive.count("ManifestSealsPerSec"));
        assertEquals(1, archive.count("ManifestSealTimeMs"));
    }

    @Test
    void theChainGoesOnAcrossARestartFromTheReceiptsInTheMetadata() throws Exception {
        RemoteLogSegmentMetadata first = TestArchive.segment(PARTITION, 0, 99, 100);
        WormChainRecord one =
                WormChainRecord.decode(archive.finished(first, rsm.copyLogSegmentData(first, archive.files(first, 1)))
                        .customMetadata()
                        .orElseThrow()
                        .value());
        RemoteLogSegmentMetadata second = TestArchive.segment(PARTITION, 100, 199, 100);
        WormChainRecord two = WormChainRecord.decode(
                archive.finished(second, rsm.copyLogSegmentData(second, archive.files(second, 2)))
                        .customMetadata()
                        .orElseThrow()
                        .value());
        assertEquals(one.epochId(), two.epochId());
        assertEquals(one.head().orElseThrow(), two.prevHead());

        rsm.close();
        rsm = archive.open(archive.settings());
        RemoteLogSegmentMetadata third = TestArchive.segment(PARTITION, 200, 299, 100);
        WormChainRecord three = WormChainRecord.decode(rsm.copyLogSegmentData(third, archive.files(third, 3))
                .orElseThrow()
                .value());
        assertEquals(one.epochId(), three.epochId(), "a restart goes on with the epoch");
        assertEquals(2, three.seq());
        assertEquals(two.head().orElseThrow(), three.prevHead());
    }

    @Test
    void aKeyThatHoldsAnObjectFailsTheCopyAndIsNotOverwritten() throws Exception {
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 100);
        String logKey = PARTITION.topic() + "-" + PARTITION.partition() + "-" + PARTITION.topicId() + "/"
                + String.format("%020d", 0) + "-" + segment.remoteLogSegmentId().id() + ".log";
        StoredObject planted = archive.store.create(logKey, java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThrows(RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment, archive.files(segment, 1)));
        try (InputStream in = archive.store.read(planted.key())) {
            assertArrayEquals(new byte[] {1, 2, 3}, in.readAllBytes());
        }
    }

    @Test
    void deletesAreRefusedAndTheSegmentStays() throws Exception {
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 100);
        RemoteLogSegmentMetadata done =
                archive.finished(segment, rsm.copyLogSegmentData(segment, archive.files(segment, 1)));
        RemoteStorageException e = assertThrows(RemoteStorageException.class, () -> rsm.deleteLogSegmentData(done));
        assertTrue(e.getMessage().contains("deletes nothing"), e.getMessage());
        assertEquals(100, rsm.fetchLogSegment(done, 0).readAllBytes().length);
    }

    @Test
    void anAbandonedCopyIsRecordedOnceSignedAndTheRetryTakesItsChainPosition() throws Exception {
        RemoteLogSegmentMetadata failed = TestArchive.segment(PARTITION, 0, 99, 100);
        WormChainRecord abandonedReceipt =
                WormChainRecord.decode(rsm.copyLogSegmentData(failed, archive.files(failed, 1))
                        .orElseThrow()
                        .value());
        // The broker could not record the copy (say, its metadata update failed): it abandons it, twice.
        rsm.abandonSegmentCopy(failed);
        rsm.abandonSegmentCopy(failed);
        String recordKey = manifestKey(failed).replace(".manifest", ".abandoned");
        AbandonmentRecord record;
        try (InputStream in = archive.store.read(recordKey)) {
            record = AbandonmentRecord.decode(in.readAllBytes());
        }
        assertEquals(failed.remoteLogSegmentId().id(), record.segment().segmentId());
        assertTrue(record.signature().isPresent());

        RemoteLogSegmentMetadata retry = TestArchive.segment(PARTITION, 0, 99, 100);
        WormChainRecord retried = WormChainRecord.decode(rsm.copyLogSegmentData(retry, archive.files(retry, 1))
                .orElseThrow()
                .value());
        assertEquals(abandonedReceipt.seq(), retried.seq(), "the abandoned manifest's seq is taken again");
        assertEquals(abandonedReceipt.prevHead(), retried.prevHead());
    }

    @Test
    void aWriteOnlyArchiveRefusesEveryRead() throws Exception {
        Map<String, Object> settings = archive.settings();
        settings.put("write.only", "true");
        rsm.close();
        rsm = archive.open(settings);
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 100);
        RemoteLogSegmentMetadata done =
                archive.finished(segment, rsm.copyLogSegmentData(segment, archive.files(segment, 1)));
        assertThrows(RemoteFetchRefusedException.class, () -> rsm.fetchLogSegment(done, 0));
        assertThrows(RemoteFetchRefusedException.class, () -> rsm.fetchIndex(done, IndexType.OFFSET));
    }

    @Test
    void aManifestChangedAfterItsReceiptIsNotServed() throws Exception {
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 100);
        RemoteLogSegmentMetadata done =
                archive.finished(segment, rsm.copyLogSegmentData(segment, archive.files(segment, 1)));
        Path manifest = dir.resolve("store/kafka-tiered-storage").resolve(manifestKey(segment));
        Files.writeString(manifest, Files.readString(manifest).replace("\"end_offset\":99", "\"end_offset\":98"));
        RemoteStorageException e = assertThrows(RemoteStorageException.class, () -> rsm.fetchLogSegment(done, 0));
        assertTrue(e.getMessage().contains("altered"), e.getMessage());
    }

    @Test
    void aSegmentSealedWithoutATransactionIndexHasNone() throws Exception {
        RemoteLogSegmentMetadata segment = TestArchive.segment(PARTITION, 0, 99, 100);
        RemoteLogSegmentMetadata done =
                archive.finished(segment, rsm.copyLogSegmentData(segment, archive.files(segment, 1)));
        assertThrows(RemoteResourceNotFoundException.class, () -> rsm.fetchIndex(done, IndexType.TRANSACTION));
    }

    @Test
    void aStoreWithoutEnforcedRetentionIsRefusedInOneLineNamingIt() throws Exception {
        Map<String, Object> settings = archive.settings();
        settings.remove("allow.unenforced.retention");
        ConfigException e = assertThrows(ConfigException.class, () -> archive.open(settings));
        assertTrue(
                e.getMessage().contains(archive.store.location())
                        && e.getMessage().contains("no default retention")
                        && !e.getMessage().contains("\n"),
                e.getMessage());
    }

    @Test
    void aBrokerLimitWithoutRoomForTheReceiptIsRefused() {
        Map<String, Object> settings = archive.settings();
        settings.put("remote.log.metadata.custom.metadata.max.bytes", "128");
        ConfigException e = assertThrows(ConfigException.class, () -> archive.open(settings));
        assertTrue(e.getMessage().contains("remote.log.metadata.custom.metadata.max.bytes"), e.getMessage());
    }

    @Test
    void aKeyPathWithoutAnIdIsRefused() {
        Map<String, Object> settings = archive.settings();
        settings.remove("signing.key.id");
        assertThrows(ConfigException.class, () -> archive.open(settings));
        settings.put("signing.key.id", "k");
        settings.put("signing.key.path", dir.resolve("missing.pk8").toString());
        ConfigException e = assertThrows(ConfigException.class, () -> archive.open(settings));
        assertTrue(e.getMessage().contains("missing.pk8"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    private SegmentManifest manifest(RemoteLogSegmentMetadata segment) throws Exception {
        try (InputStream in = archive.store.read(manifestKey(segment))) {
            return ManifestJson.read(in.readAllBytes());
        }
    }

    private static String manifestKey(RemoteLogSegmentMetadata segment) {
        return PARTITION.topic() + "-" + PARTITION.partition() + "-" + PARTITION.topicId() + "/"
                + String.format("%020d", segment.startOffset()) + "-"
                + segment.remoteLogSegmentId().id() + ".manifest";
    }
}
