package io.krabka.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an archive attests short of tampering: orphans, restarts, signatures, abandoned copies, filters, heads. */
class ArchiveAttestationTest {

    private static final SigningKey KEY = ArchiveTamperTest.KEY;
    private static final Uuid TOPIC_ID = new Uuid(0x0123, 0x4567);

    @TempDir
    Path dir;

    private ObjectStore store;
    private TestArchive archive;
    private VerifyOptions options;

    @BeforeEach
    void openStore() throws Exception {
        store = Verification.localStore(dir);
        archive = new TestArchive(store, Optional.of(KEY));
        options = VerifyOptions.of(TestArchive.LAYOUT)
                .withTrustedKeys(TrustedKeys.of(Map.of("worm-1", KEY.verificationKey())));
    }

    @Test
    void anUnreferencedObjectIsReportedAndGradedOnlyWhenStrict() throws Exception {
        TestArchive.Partition orders = threeSegments("orders", 0);
        String stray = TestArchive.LAYOUT.keyPrefix() + orders.directory() + "/00000000000000000300-stray.log";
        store.create(stray, ByteBuffer.wrap(new byte[] {1, 2, 3}));

        Verification lenient = Verification.run(store, options)
                .assertVerdict(VerifyGrade.OK, "ORPHAN OBJECTS: 1 object(s) with no manifest");
        assertEquals(List.of(stray), lenient.partition(orders.directory()).orphanObjects());
        assertTrue(lenient.verdict().lines().getLast().startsWith("OK: 3 manifests over 1 partition(s)"));
        Verification.run(store, options.withStrictOrphans(true))
                .assertVerdict(VerifyGrade.INCOMPLETE, "ORPHAN OBJECTS: 1 object(s) with no manifest");
    }

    @Test
    void anObjectOutsideAnyPartitionIsAGlobalOrphan() throws Exception {
        threeSegments("orders", 0);
        store.create("tier/stray", ByteBuffer.wrap(new byte[] {1}));
        store.create("tier/a/b/c", ByteBuffer.wrap(new byte[] {1}));
        Verification v = Verification.run(store, options)
                .assertVerdict(VerifyGrade.OK, "ORPHAN OBJECTS: 2 object(s) with no manifest");
        assertEquals(
                List.of("tier/a/b/c", "tier/stray"),
                v.report().globalOrphanObjects().stream().sorted().toList());
    }

    @Test
    void aChainRestartIsIncompleteUnlessAllowed() throws Exception {
        TestArchive.Partition orders = archive.partition("orders", 0, TOPIC_ID);
        orders.append(100);
        orders.restartEpoch();
        orders.append(100);
        orders.append(100);
        Verification v = Verification.run(store, options)
                .assertVerdict(VerifyGrade.INCOMPLETE, "INCOMPLETE ATTESTATION: chain restarted 1 time(s)");
        PartitionVerifyReport p = v.partition(orders.directory());
        assertEquals(2, p.epochs().size());
        assertEquals(0, p.epochs().get(1).firstSeq());
        assertEquals(1, p.epochs().get(1).lastSeq());
        assertEquals(100, p.epochs().get(1).startOffset());
        assertTrue(p.ok());
        Verification.run(store, options.withAllowEpochRestarts(true))
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 3 manifests over 1 partition(s), chain continuous (1 epoch restart(s) allowed), "
                                + "all signatures valid; tail unverified (no --expect-head)");
    }

    @Test
    void unsignedManifestsAreIncomplete() throws Exception {
        TestArchive unsigned = new TestArchive(store, Optional.empty());
        TestArchive.Partition orders = unsigned.partition("orders", 0, TOPIC_ID);
        orders.append(10);
        orders.append(10);
        Verification v = Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.INCOMPLETE,
                        "INCOMPLETE ATTESTATION: 2 manifest(s) unsigned, 0 signed by an untrusted key");
        assertEquals(2, v.partition(orders.directory()).unsignedManifests());
    }

    @Test
    void noTrustedKeyLeavesEverySignatureUntrusted() throws Exception {
        threeSegments("orders", 0);
        Verification.run(store, options.withTrustedKeys(TrustedKeys.none()))
                .assertVerdict(
                        VerifyGrade.INCOMPLETE,
                        "INCOMPLETE ATTESTATION: 0 manifest(s) unsigned, 3 signed by an untrusted key");
    }

    @Test
    void anAbandonedCopyIsNeitherAnOrphanNorInTheChain() throws Exception {
        TestArchive.Partition orders = archive.partition("orders", 0, TOPIC_ID);
        orders.append(100);
        TestArchive.Written abandoned = orders.abandonNext(100, true, Optional.of(KEY));
        orders.append(100);
        orders.append(100);

        Verification v = Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 3 manifests over "
                                + "1 partition(s), chain continuous, all signatures valid; tail unverified (no --expect-head)");
        PartitionVerifyReport p = v.partition(orders.directory());
        assertEquals(List.of(), p.orphanObjects());
        assertEquals(1, p.abandonedCopies().size());
        AbandonedCopy copy = p.abandonedCopies().getFirst();
        assertEquals(abandoned.segment().segmentId(), copy.segmentId());
        String record = TestArchive.objectKey(abandoned.segment(), "abandoned");
        assertEquals(
                Stream.concat(abandoned.objectKeys().stream(), Stream.of(abandoned.manifestKey(), record))
                        .sorted()
                        .toList(),
                copy.objects());
        assertEquals(record, copy.recordKey());
        assertTrue(
                v.lines()
                        .contains("  " + orders.directory() + ": tip "
                                + orders.tip().hex() + ", 3 manifests, "
                                + "offsets [0, 299], 1 epoch(s), 9 objects checked, 1 abandoned copy; tail unverified"),
                v.lines()::toString);
    }

    @Test
    void anUntrustedAbandonmentRecordExcusesNothing() throws Exception {
        TestArchive.Partition orders = archive.partition("orders", 0, TOPIC_ID);
        orders.append(100);
        TestArchive.Written abandoned = orders.abandonNext(100, false, Optional.of(ArchiveTamperTest.OTHER_KEY));
        orders.append(100);

        Verification v = Verification.run(store, options)
                .assertVerdict(VerifyGrade.OK, "ORPHAN OBJECTS: 4 object(s) with no manifest");
        PartitionVerifyReport p = v.partition(orders.directory());
        String record = TestArchive.objectKey(abandoned.segment(), "abandoned");
        assertEquals(
                Stream.concat(abandoned.objectKeys().stream(), Stream.of(record))
                        .sorted()
                        .toList(),
                p.orphanObjects());
        assertEquals(
                List.of(new RejectedRecord(record, "it carries a public key other than the one trusted as \"worm-1\"")),
                p.rejectedAbandonmentRecords());
    }

    @Test
    void anUnsignedAbandonmentLeavesTheAbandonedManifestInTheChain() throws Exception {
        TestArchive.Partition orders = archive.partition("orders", 0, TOPIC_ID);
        orders.append(100);
        TestArchive.Written abandoned = orders.abandonNext(100, true, Optional.empty());
        TestArchive.Written retry = orders.append(100);

        TestArchive.Written later =
                abandoned.segment().segmentId().compareTo(retry.segment().segmentId()) > 0 ? abandoned : retry;
        Verification.run(store, options)
                .assertBreak(orders.directory(), later.manifestKey(), Optional.of(1L), "seq 1 follows seq 1");
    }

    @Test
    void filtersReadTheManifestsNotTheDirectoryName() throws Exception {
        threeSegments("orders", 0);
        TestArchive.Partition second = threeSegments("orders", 1);
        threeSegments("orders-1", 0);
        store.delete(second.segments().get(1).manifestKey());

        Verification topic = Verification.run(store, options.withTopic("orders-1"));
        assertEquals(
                List.of("orders-1-0-" + TOPIC_ID),
                topic.report().partitions().stream()
                        .map(PartitionVerifyReport::partitionDir)
                        .toList());
        assertEquals(VerifyGrade.OK, topic.verdict().grade());
        Verification partition =
                Verification.run(store, options.withTopic("orders").withPartition(1));
        assertEquals(
                List.of(second.directory()),
                partition.report().partitions().stream()
                        .map(PartitionVerifyReport::partitionDir)
                        .toList());
        assertEquals(VerifyGrade.TAMPERED, partition.verdict().grade());
        Verification.run(store, options.withTopic("payments")).assertVerdict(VerifyGrade.OK, "OK: empty archive");
    }

    @Test
    void anEmptyArchiveIsOkUnlessAHeadIsExpected() throws Exception {
        Verification.run(store, options).assertVerdict(VerifyGrade.OK, "OK: empty archive");
        String head = "ab".repeat(32);
        Verification.run(store, options.withExpectedHeads(ExpectedHeads.parse(List.of(head))))
                .assertVerdict(VerifyGrade.TAMPERED, "HEAD MISMATCH: expected " + head + ", archive tip none");
    }

    @Test
    void aHeadExpectedForAPartitionNotInTheArchiveIsAMismatch() throws Exception {
        TestArchive.Partition orders = threeSegments("orders", 0);
        String head = "ab".repeat(32);
        Verification.run(
                        store,
                        options.withExpectedHeads(ExpectedHeads.parse(
                                List.of(orders.directory() + "=" + orders.tip().hex(), "orders-9-x=" + head))))
                .assertVerdict(
                        VerifyGrade.TAMPERED,
                        "HEAD MISMATCH: expected " + head + ", archive tip none " + "(orders-9-x)");
    }

    @Test
    void aBareExpectedHeadOverSeveralPartitionsIsAUsageError() throws Exception {
        threeSegments("orders", 0);
        threeSegments("orders", 1);
        AmbiguousExpectedHeadException e = assertThrows(
                AmbiguousExpectedHeadException.class,
                () -> ArchiveVerifier.verify(
                        store,
                        options.withExpectedHeads(ExpectedHeads.parse(List.of("ab".repeat(32)))),
                        VerifyProgress.NONE));
        assertTrue(e.getMessage().contains("2 were checked: give each as PARTITION_DIR=HEX"), e.getMessage());
    }

    @Test
    void expectedHeadsAreParsedStrictly() {
        assertThrows(IllegalArgumentException.class, () -> ExpectedHeads.parse(List.of("abc")));
        assertThrows(
                IllegalArgumentException.class, () -> ExpectedHeads.parse(List.of("ab".repeat(32), "cd".repeat(32))));
        assertThrows(IllegalArgumentException.class, () -> ExpectedHeads.parse(List.of("a/b=" + "ab".repeat(32))));
        assertThrows(
                IllegalArgumentException.class,
                () -> ExpectedHeads.parse(List.of("d=" + "ab".repeat(32), "d=" + "cd".repeat(32))));
        assertEquals(
                1,
                ExpectedHeads.parse(List.of("d=" + "AB".repeat(32)))
                        .byDirectory()
                        .size());
    }

    @Test
    void anOffsetGapIsReportedNotGraded() throws Exception {
        TestArchive.Partition orders = archive.partition("orders", 0, TOPIC_ID);
        orders.append(100);
        orders.skipOffsets(50);
        orders.append(100);
        Verification v = Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 2 manifests over "
                                + "1 partition(s), chain continuous, all signatures valid; tail unverified (no --expect-head)");
        assertEquals(
                List.of(new OffsetGap(100, 149)),
                v.partition(orders.directory()).offsetGaps());
        assertTrue(v.lines().contains("    offset gap: [100, 149] in no manifest"), v.lines()::toString);
    }

    private TestArchive.Partition threeSegments(String topic, int partition) throws Exception {
        TestArchive.Partition p = archive.partition(topic, partition, TOPIC_ID);
        for (int i = 0; i < 3; i++) {
            p.append(100);
        }
        return p;
    }
}
