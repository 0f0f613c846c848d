package io.krabka.kernel.restore.authenticate;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.restore.ArchiveDiscovery;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.AuthenticationException;
import io.krabka.kernel.restore.RestoreIntegrityException;
import io.krabka.kernel.restore.SegmentAuthority.PartitionAuthority;
import io.krabka.kernel.restore.SegmentAuthority.SegmentCheck;
import io.krabka.kernel.restore.TornCopyException;
import io.krabka.kernel.restore.report.AuthenticationReport;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authenticated restore's authority over archives written with krabka-archive's sealer into the real local
 * store, found by the real discover stage, and read back as the verify stage reads them: clean, and tampered one
 * way per test.
 */
class ArchiveAuthenticatorTest {

    private static final SigningKey KEY = SealedArchive.generatedKey(SealedArchive.KEY_ID);
    private static final TrustedKeys TRUSTED = TrustedKeys.of(Map.of(SealedArchive.KEY_ID, KEY.verificationKey()));
    private static final Uuid TOPIC_ID = new Uuid(0x0123, 0x4567);

    @TempDir
    Path dir;

    private ObjectStore store;
    private SealedArchive.Partition orders0;
    private SealedArchive.Partition orders1;

    @BeforeEach
    void writeArchive() throws Exception {
        store = PluginDiscovery.discover(Path.of("target/test-plugins"))
                .createObjectStore("local", Map.of("dir", dir.toString()));
        SealedArchive archive = new SealedArchive(store, Optional.of(KEY));
        orders0 = archive.partition("orders", 0, TOPIC_ID);
        orders1 = archive.partition("orders", 1, TOPIC_ID);
        for (int i = 0; i < 3; i++) {
            orders0.append(100);
            orders1.append(100);
        }
    }

    @AfterEach
    void close() throws Exception {
        store.close();
    }

    private ArchiveAuthenticator authenticator(Map<String, String> expectedHeads) {
        return new ArchiveAuthenticator(store, SealedArchive.LAYOUT, TRUSTED, expectedHeads);
    }

    private Map<String, String> bothTips() {
        return Map.of(
                orders0.directory(),
                orders0.tip().hex(),
                orders1.directory(),
                orders1.tip().hex());
    }

    private ArchivedPartition discovered(SealedArchive.Partition partition) throws Exception {
        return ArchiveDiscovery.discover(store, SealedArchive.LAYOUT).partitions().stream()
                .filter(p -> p.directory().equals(partition.directory()))
                .findFirst()
                .orElseThrow();
    }

    /** Reads every copy that is not abandoned as the verify stage does: through the check, to the end. */
    private void readAll(PartitionAuthority authority, ArchivedPartition partition) throws Exception {
        for (ArchivedSegment segment : partition.segments()) {
            if (segment.abandoned().isEmpty()) {
                read(authority.segment(segment), segment);
            }
        }
    }

    private void read(SegmentCheck check, ArchivedSegment segment) throws Exception {
        String key = segment.object(SegmentArtifact.SEGMENT).orElseThrow().key();
        try (InputStream in = check.wrap(store.read(key, check.logVersion()))) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        check.finish();
    }

    private static <T extends RestoreIntegrityException> T assertFails(
            Class<T> type, String key, String detail, Failing call) {
        T e = assertThrows(type, call::run);
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains(detail), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
        return e;
    }

    @FunctionalInterface
    private interface Failing {
        void run() throws Exception;
    }

    @Test
    void aCleanArchiveAuthenticatesEveryByteAndPinsEveryTip() throws Exception {
        ArchiveAuthenticator authenticator = authenticator(bothTips());
        for (SealedArchive.Partition p : List.of(orders0, orders1)) {
            ArchivedPartition partition = discovered(p);
            readAll(authenticator.partition(partition), partition);
        }
        TreeMap<String, String> heads = new TreeMap<>(bothTips());
        assertEquals(
                Optional.of(new AuthenticationReport(2, 6, 18, List.of(SealedArchive.KEY_ID), heads, true)),
                authenticator.report());
    }

    @Test
    void withoutExpectedHeadsTheTailIsNotProtected() throws Exception {
        ArchiveAuthenticator authenticator =
                authenticator(Map.of(orders0.directory(), orders0.tip().hex()));
        authenticator.partition(discovered(orders0));
        authenticator.partition(discovered(orders1));
        AuthenticationReport report = authenticator.report().orElseThrow();
        assertFalse(report.tailTruncationProtected());
        assertEquals(orders1.tip().hex(), report.chainHeads().get(orders1.directory()));
        assertEquals(0, report.objects(), "nothing read, nothing vouched for");
    }

    @Test
    void aFlippedByteInALogFailsAsItIsFinished() throws Exception {
        SealedArchive.Written middle = orders0.segments().get(1);
        byte[] log = SealedArchive.content(middle.segment(), "log");
        log[500] ^= 0x01;
        store.put(middle.logKey(), ByteBuffer.wrap(log));
        ArchivedPartition partition = discovered(orders0);
        PartitionAuthority authority = authenticator(Map.of()).partition(partition);
        ArchivedSegment segment = partition.segments().get(1);
        SegmentCheck check = authority.segment(segment);
        assertFails(
                AuthenticationException.class,
                middle.logKey(),
                "differs from the manifest's",
                () -> read(check, segment));
    }

    @Test
    void aLogOfAnotherSizeFailsBeforeItIsRead() throws Exception {
        SealedArchive.Written middle = orders0.segments().get(1);
        store.put(middle.logKey(), ByteBuffer.wrap(Arrays.copyOf(SealedArchive.content(middle.segment(), "log"), 999)));
        ArchivedPartition partition = discovered(orders0);
        PartitionAuthority authority = authenticator(Map.of()).partition(partition);
        assertFails(
                AuthenticationException.class,
                middle.logKey(),
                "the archive lists 999 bytes, the manifest claims 1000",
                () -> authority.segment(partition.segments().get(1)));
    }

    @Test
    void aLogReadShortFailsOnItsSize() throws Exception {
        ArchivedPartition partition = discovered(orders0);
        ArchivedSegment segment = partition.segments().getFirst();
        SegmentCheck check = authenticator(Map.of()).partition(partition).segment(segment);
        try (InputStream in =
                check.wrap(store.read(orders0.segments().getFirst().logKey(), check.logVersion()))) {
            in.readNBytes(10);
            in.skip(500);
        }
        assertFails(
                AuthenticationException.class,
                orders0.segments().getFirst().logKey(),
                "510 bytes were read, the manifest claims 1000",
                check::finish);
    }

    @Test
    void aSwappedManifestIsNotTheOneItsKeysName() throws Exception {
        SealedArchive.Written second = orders0.segments().get(1);
        SealedArchive.Written third = orders0.segments().get(2);
        store.put(
                second.manifestKey(),
                ByteBuffer.wrap(store.read(third.manifestKey()).readAllBytes()));
        ArchivedPartition partition = discovered(orders0);
        assertFails(
                AuthenticationException.class,
                second.manifestKey(),
                "the manifest's body belongs at " + third.manifestKey(),
                () -> authenticator(Map.of()).partition(partition));
    }

    @Test
    void aManifestReplayedFromAnotherPartitionIsRefused() throws Exception {
        SealedArchive.Written target = orders0.segments().get(1);
        store.put(
                target.manifestKey(),
                ByteBuffer.wrap(
                        store.read(orders1.segments().get(1).manifestKey()).readAllBytes()));
        assertFails(
                AuthenticationException.class,
                target.manifestKey(),
                "the manifest's body belongs at",
                () -> authenticator(Map.of()).partition(discovered(orders0)));
    }

    @Test
    void signaturesAreCheckedAgainstTheTrustedKeyOnly() throws Exception {
        ArchivedPartition partition = discovered(orders0);
        String first = orders0.segments().getFirst().manifestKey();
        SigningKey impostor = SealedArchive.generatedKey(SealedArchive.KEY_ID);
        assertFails(
                AuthenticationException.class,
                first,
                "a public key other than the one trusted as \"worm-1\"",
                () -> new ArchiveAuthenticator(
                                store,
                                SealedArchive.LAYOUT,
                                TrustedKeys.of(Map.of(SealedArchive.KEY_ID, impostor.verificationKey())),
                                Map.of())
                        .partition(partition));
        assertFails(
                AuthenticationException.class,
                first,
                "signed under key id \"worm-1\", which is not trusted",
                () -> new ArchiveAuthenticator(
                                store,
                                SealedArchive.LAYOUT,
                                TrustedKeys.of(Map.of("other", KEY.verificationKey())),
                                Map.of())
                        .partition(partition));
    }

    @Test
    void anUnsignedArchiveIsRefused() throws Exception {
        SealedArchive.Partition unsigned = new SealedArchive(store, Optional.empty()).partition("audit", 0, TOPIC_ID);
        unsigned.append(10);
        assertFails(
                AuthenticationException.class,
                unsigned.segments().getFirst().manifestKey(),
                "the manifest is unsigned",
                () -> authenticator(Map.of()).partition(discovered(unsigned)));
    }

    @Test
    void aWrongExpectedHeadNamesThePartition() throws Exception {
        assertFails(
                AuthenticationException.class,
                orders0.directory(),
                "the chain's tip is " + orders0.tip().hex() + ", --worm-expect-head expects "
                        + orders1.tip().hex(),
                () -> authenticator(Map.of(orders0.directory(), orders1.tip().hex()))
                        .partition(discovered(orders0)));
    }

    @Test
    void anExpectedHeadForAPartitionTheArchiveLacksNamesIt() throws Exception {
        String absent = "orders-7-" + TOPIC_ID;
        assertFails(
                AuthenticationException.class,
                absent,
                "names a partition directory the archive does not hold",
                () -> authenticator(Map.of(absent, orders0.tip().hex())).partition(discovered(orders0)));
    }

    @Test
    void aMalformedExpectedHeadIsRefusedUpFront() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> authenticator(Map.of(orders0.directory(), "abc")));
        assertEquals(
                "--worm-expect-head " + orders0.directory() + "=abc: the head must be 64 hex digits", e.getMessage());
    }

    @Test
    void aMissingManifestLeavesItsCopyUncovered() throws Exception {
        SealedArchive.Written middle = orders0.segments().get(1);
        store.delete(middle.manifestKey());
        assertFails(
                AuthenticationException.class,
                middle.manifestKey(),
                "the chain does not cover it",
                () -> authenticator(Map.of()).partition(discovered(orders0)));
    }

    @Test
    void anUnparsableManifestIsNamed() throws Exception {
        SealedArchive.Written middle = orders0.segments().get(1);
        store.put(middle.manifestKey(), ByteBuffer.wrap("{\"body\":".getBytes(UTF_8)));
        assertFails(
                AuthenticationException.class,
                middle.manifestKey(),
                "malformed manifest: ",
                () -> authenticator(Map.of()).partition(discovered(orders0)));
    }

    @Test
    void aTruncatedChainIsCaughtOnlyByAnExpectedHead() throws Exception {
        String recorded = orders0.tip().hex();
        SealedArchive.Written last = orders0.segments().get(2);
        for (String suffix : List.of("log", "index", "timeindex", "manifest")) {
            store.delete(SealedArchive.key(last.segment(), suffix));
        }
        ArchivedPartition partition = discovered(orders0);
        authenticator(Map.of()).partition(partition);
        assertFails(
                AuthenticationException.class,
                orders0.directory(),
                "the chain's tip is " + orders0.segments().get(1).head().hex() + ", --worm-expect-head expects "
                        + recorded,
                () -> authenticator(Map.of(orders0.directory(), recorded)).partition(partition));
    }

    @Test
    void abandonedCopiesAreToleratedAndLeftOutOfTheChain() throws Exception {
        orders0.abandonNext(100, Optional.of(KEY));
        SealedArchive.Written retry = orders0.append(100);
        ArchivedPartition partition = discovered(orders0);
        ArchiveAuthenticator authenticator =
                authenticator(Map.of(orders0.directory(), orders0.tip().hex()));
        PartitionAuthority authority = authenticator.partition(partition);
        readAll(authority, partition);
        ArchivedSegment abandoned = partition.segments().stream()
                .filter(s -> s.abandoned().isPresent())
                .findFirst()
                .orElseThrow();
        assertFails(
                AuthenticationException.class,
                abandoned.object(SegmentArtifact.SEGMENT).orElseThrow().key(),
                "the copy was abandoned",
                () -> authority.segment(abandoned));
        assertEquals(4, authenticator.report().orElseThrow().manifests());
        assertEquals(retry.head(), orders0.tip());
    }

    @Test
    void anAbandonmentRecordNoTrustedKeySignedDropsNothing() throws Exception {
        SealedArchive.Written abandoned = orders0.abandonNext(100, Optional.of(SealedArchive.generatedKey("other")));
        orders0.append(100);
        assertFails(
                AuthenticationException.class,
                SealedArchive.key(abandoned.segment(), "abandoned"),
                "the abandonment record excuses nothing: it is signed under key id \"other\"",
                () -> authenticator(Map.of()).partition(discovered(orders0)));
    }

    @Test
    void aRestartThatContinuesTheOffsetsIsAccepted() throws Exception {
        orders0.restartEpoch();
        orders0.append(100);
        ArchivedPartition partition = discovered(orders0);
        ArchiveAuthenticator authenticator =
                authenticator(Map.of(orders0.directory(), orders0.tip().hex()));
        readAll(authenticator.partition(partition), partition);
        assertEquals(4, authenticator.report().orElseThrow().manifests());
    }

    @Test
    void aRestartAboveTheLastOffsetMayHideACutTailAndIsRefused() throws Exception {
        SealedArchive.Written cut = orders0.segments().get(2);
        orders0.restartEpoch();
        SealedArchive.Written restarted = orders0.append(100);
        for (String suffix : List.of("log", "index", "timeindex", "manifest")) {
            store.delete(SealedArchive.key(cut.segment(), suffix));
        }
        assertFails(
                AuthenticationException.class,
                restarted.manifestKey(),
                "the chain restarts at offset 300, above offset 199 where the epoch before ends",
                () -> authenticator(Map.of(orders0.directory(), orders0.tip().hex()))
                        .partition(discovered(orders0)));
    }

    @Test
    void everyObjectBesideTheLogMustBeTheOneClaimed() throws Exception {
        SealedArchive.Written first = orders0.segments().getFirst();
        store.delete(first.indexKey());
        String planted = SealedArchive.key(orders0.segments().get(1).segment(), "snapshot");
        store.put(planted, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        ArchivedPartition partition = discovered(orders0);
        PartitionAuthority authority = authenticator(Map.of()).partition(partition);
        assertFails(
                TornCopyException.class,
                first.indexKey(),
                "the manifest lists the object",
                () -> authority.segment(partition.segments().getFirst()));
        assertFails(
                AuthenticationException.class,
                planted,
                "the copy's manifest does not list the object",
                () -> authority.segment(partition.segments().get(1)));
    }

    @Test
    void partitionsAuthenticatedAtOnceAreAllCounted() throws Exception {
        SealedArchive archive = new SealedArchive(store, Optional.of(KEY));
        List<SealedArchive.Partition> more = new ArrayList<>();
        for (int p = 2; p < 10; p++) {
            SealedArchive.Partition partition = archive.partition("orders", p, TOPIC_ID);
            partition.append(50);
            partition.append(50);
            more.add(partition);
        }
        ArchiveAuthenticator authenticator = authenticator(Map.of());
        List<ArchivedPartition> partitions =
                ArchiveDiscovery.discover(store, SealedArchive.LAYOUT).partitions();
        ExecutorService pool = Executors.newFixedThreadPool(partitions.size());
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (ArchivedPartition partition : partitions) {
                done.add(pool.submit(() -> {
                    readAll(authenticator.partition(partition), partition);
                    return null;
                }));
            }
            for (Future<Object> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        AuthenticationReport report = authenticator.report().orElseThrow();
        assertEquals(10, report.partitions());
        assertEquals(6 + 16, report.manifests());
        assertEquals(3 * (6 + 16), report.objects());
        assertEquals(10, report.chainHeads().size());
        assertEquals(
                more.getLast().tip().hex(),
                report.chainHeads().get(more.getLast().directory()));
    }
}
