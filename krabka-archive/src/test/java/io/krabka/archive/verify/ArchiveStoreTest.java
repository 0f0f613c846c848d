package io.krabka.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.testkit.ForwardingObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verifier against what a store answers: failures to answer, protection, uploads, progress, renderings. */
class ArchiveStoreTest {

    @TempDir
    Path dir;

    private ObjectStore store;
    private TestArchive.Partition orders;
    private VerifyOptions options;

    @BeforeEach
    void writeArchive() throws Exception {
        store = Verification.localStore(dir);
        TestArchive archive = new TestArchive(store, Optional.of(ArchiveTamperTest.KEY));
        orders = archive.partition("orders", 0, new Uuid(0x0123, 0x4567));
        for (int i = 0; i < 3; i++) {
            orders.append(100);
        }
        options = VerifyOptions.of(TestArchive.LAYOUT)
                .withTrustedKeys(TrustedKeys.of(Map.of("worm-1", ArchiveTamperTest.KEY.verificationKey())));
    }

    @Test
    void aMissingDirectoryIsUnreadableNotTampered() throws Exception {
        Path gone = Files.createDirectory(dir.resolve("gone"));
        ObjectStore missing = Verification.localStore(gone);
        Files.delete(gone);
        ArchiveUnreadableException e = assertThrows(
                ArchiveUnreadableException.class, () -> ArchiveVerifier.verify(missing, options, VerifyProgress.NONE));
        assertTrue(e.getMessage().startsWith("cannot read the archive at "), e.getMessage());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void aListingTheStoreFailsIsUnreadable() {
        ObjectStore refusing = new ForwardingObjectStore(store) {
            @Override
            public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
                throw new RemoteStorageException("403 Forbidden");
            }
        };
        ArchiveUnreadableException e = assertThrows(
                ArchiveUnreadableException.class, () -> ArchiveVerifier.verify(refusing, options, VerifyProgress.NONE));
        assertTrue(e.getMessage().endsWith("listing \"tier/\" failed: 403 Forbidden"), e.getMessage());
    }

    @Test
    void aReadTheStoreFailsMidWalkIsUnreadable() {
        ObjectStore failing = new ForwardingObjectStore(store) {
            @Override
            public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
                if (key.endsWith(".index")) {
                    throw new RemoteStorageException("connection reset");
                }
                return super.head(key, version);
            }
        };
        assertThrows(
                ArchiveUnreadableException.class,
                () -> ArchiveVerifier.verify(failing, options.withParallelism(1), VerifyProgress.NONE));
    }

    @Test
    void aStreamThatFailsWhileHashingIsUnreadable() {
        ObjectStore failing = new ForwardingObjectStore(store) {
            @Override
            public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
                if (key.endsWith(".log")) {
                    return new InputStream() {
                        @Override
                        public int read() throws IOException {
                            throw new IOException("connection reset");
                        }
                    };
                }
                return super.read(key, version);
            }
        };
        assertThrows(
                ArchiveUnreadableException.class,
                () -> ArchiveVerifier.verify(failing, options.withDeep(true), VerifyProgress.NONE));
    }

    @Test
    void countsCreatePreconditionsAndBucketRetention() throws Exception {
        Instant until = Instant.parse("2031-01-01T00:00:00Z");
        ObjectStore retained = new ForwardingObjectStore(store) {
            @Override
            public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
                RetentionMode mode = key.endsWith(".log")
                        ? RetentionMode.COMPLIANCE
                        : key.endsWith(".index") ? RetentionMode.GOVERNANCE : RetentionMode.NONE;
                return super.head(key, version)
                        .map(o -> new StoredObject(
                                o.key(),
                                o.size(),
                                o.etag(),
                                o.version(),
                                mode,
                                mode == RetentionMode.NONE ? Optional.empty() : Optional.of(until),
                                false));
            }
        };
        Verification v = Verification.run(retained, options);
        PartitionVerifyReport p = v.partition(orders.directory());
        assertEquals(9, p.createPreconditionObjects().count(), "the local store creates with a precondition");
        assertEquals(6, p.bucketRetentionObjects().count());
        assertEquals(3, p.complianceRetentionObjects());
        String firstLog = orders.segments().getFirst().objectKeys().getFirst();
        assertEquals(
                Optional.of(firstLog + " (COMPLIANCE until 2031-01-01T00:00:00Z)"),
                p.bucketRetentionObjects().sample());
        assertTrue(
                v.lines()
                        .contains("    bucket retention: 6 of 9 objects, e.g. " + firstLog
                                + " (COMPLIANCE until 2031-01-01T00:00:00Z) (3 COMPLIANCE)"),
                v.lines()::toString);
        assertTrue(
                v.lines().contains("    create precondition: 9 of 9 objects, e.g. " + firstLog), v.lines()::toString);
    }

    @Test
    void incompleteMultipartUploadsAreIncomplete() throws Exception {
        ObjectStore withUploads = new ForwardingObjectStore(store) {
            @Override
            public List<IncompleteUpload> incompleteUploads(String prefix) {
                return List.of(new IncompleteUpload(prefix + orders.directory() + "/big.log", "u-1", Optional.empty()));
            }
        };
        Verification.run(withUploads, options)
                .assertVerdict(
                        VerifyGrade.INCOMPLETE,
                        "INCOMPLETE MULTIPART UPLOADS: " + "1 upload(s) neither completed nor aborted, e.g. tier/"
                                + orders.directory() + "/big.log");
    }

    @Test
    void reportsProgressOfEveryObjectAndHashedByte() throws Exception {
        AtomicLong objects = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        ArchiveVerifier.verify(store, options.withDeep(true), (o, b) -> {
            objects.accumulateAndGet(o, Math::max);
            bytes.accumulateAndGet(b, Math::max);
        });
        assertEquals(9, objects.get());
        assertEquals(3 * (1000 + 69 + 73), bytes.get(), "each segment's .log, .index and .timeindex");
    }

    @Test
    void theReportIsTheSameWhateverTheParallelism() throws Exception {
        TestArchive archive = new TestArchive(store, Optional.of(ArchiveTamperTest.KEY));
        for (int partition = 1; partition < 6; partition++) {
            archive.partition("orders", partition, new Uuid(0x0123, 0x4567)).append(10);
        }
        assertEquals(
                ArchiveVerifier.verify(store, options.withParallelism(1), VerifyProgress.NONE),
                ArchiveVerifier.verify(store, options.withParallelism(4), VerifyProgress.NONE));
    }

    @Test
    void rendersTheReportAsJson() throws Exception {
        store.delete(orders.segments().get(1).manifestKey());
        Verification v = Verification.run(store, options.withDeep(true));
        JsonNode json = new ObjectMapper().readTree(VerifyJsonRenderer.write(v.report(), v.verdict()));
        assertEquals("tampered", json.at("/verdict/grade").asText());
        assertEquals(v.verdict().summary(), json.at("/verdict/summary").asText());
        assertEquals("tamper_detected", json.at("/verdict/findings/0/kind").asText());
        JsonNode p = json.at("/report/partitions/0");
        assertEquals(orders.directory(), p.get("partition_dir").asText());
        assertEquals("orders", p.get("topic").asText());
        assertEquals(0, p.get("partition").asInt());
        assertEquals(1, p.get("manifests").asInt());
        assertFalse(p.get("ok").asBoolean());
        assertEquals(
                orders.segments().get(2).manifestKey(), p.at("/first_break/key").asText());
        assertEquals(2, p.at("/first_break/seq").asLong());
        assertEquals(orders.segments().getFirst().head().hex(), p.get("head").asText());
        assertEquals(3, p.get("orphan_objects").size());
        assertTrue(p.get("expected_head").isNull());
        assertEquals("unverified", p.get("tail").asText());
        assertEquals(0, p.at("/epochs/0/first_seq").asLong());
        assertTrue(json.at("/report/deep").asBoolean());
        assertEquals("tier", json.at("/report/prefix").asText());
    }

    @Test
    void anObjectOfTheArchiveWrittenAfterTheListingIsNotSeen() throws Exception {
        // The listing is the archive verified: what lands later is for the next run, never a half-seen finding.
        ObjectStore growing = new ForwardingObjectStore(store) {
            @Override
            public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
                ObjectListing page = super.list(prefix, pageToken);
                delegate().create(prefix + "late", ByteBuffer.wrap(new byte[] {1}));
                return page;
            }
        };
        Verification.run(growing, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 3 manifests over 1 partition(s), "
                                + "chain continuous, all signatures valid; tail unverified (no --expect-head)");
    }
}
