package io.krabka.archive.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.internal.Hex;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ManifestSealer;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SealedManifest;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tamper matrix: an archive of two partitions of three signed segments each, changed one way per test, and
 * the verdict, grade and break each change must give.
 */
class ArchiveTamperTest {

    static final SigningKey KEY = SigningKey.fromPrivateKey("worm-1", filled(1));
    static final SigningKey OTHER_KEY = SigningKey.fromPrivateKey("worm-1", filled(2));

    @TempDir
    Path dir;

    private ObjectStore store;
    private TestArchive.Partition orders0;
    private TestArchive.Partition orders1;
    private VerifyOptions options;

    @BeforeEach
    void writeArchive() throws Exception {
        store = Verification.localStore(dir);
        TestArchive archive = new TestArchive(store, Optional.of(KEY));
        orders0 = archive.partition("orders", 0, new Uuid(0x0123, 0x4567));
        orders1 = archive.partition("orders", 1, new Uuid(0x0123, 0x4567));
        for (int i = 0; i < 3; i++) {
            orders0.append(100);
            orders1.append(100);
        }
        options = VerifyOptions.of(TestArchive.LAYOUT)
                .withTrustedKeys(TrustedKeys.of(Map.of("worm-1", KEY.verificationKey())));
    }

    @Test
    void anIntactArchiveIsOkWithItsTailUnverified() throws Exception {
        Verification v = Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 6 manifests over 2 partition(s), chain continuous, all signatures valid; "
                                + "tail unverified (no --expect-head)");
        PartitionVerifyReport p = v.partition(orders0.directory());
        assertEquals(3, p.manifests());
        assertEquals(9, p.objectsChecked());
        assertEquals(Optional.of(orders0.tip()), p.head());
        assertEquals(Optional.of(0L), p.startOffset());
        assertEquals(Optional.of(299L), p.endOffset());
        assertEquals(List.of(), p.orphanObjects());
        assertEquals(List.of(), p.offsetGaps());
        assertEquals(1, p.epochs().size());
        assertEquals(2, p.epochs().getFirst().lastSeq());
        assertTrue(
                v.lines()
                        .contains("  " + orders0.directory() + ": tip "
                                + orders0.tip().hex()
                                + ", 3 manifests, offsets [0, 299], 1 epoch(s), 9 objects checked; tail unverified"),
                v.lines()::toString);
    }

    @Test
    void aFlippedByteInASegmentIsCaughtByDeepVerificationOnly() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        byte[] log = TestArchive.content(middle.segment(), "log");
        log[500] ^= 0x01;
        store.put(middle.objectKeys().getFirst(), ByteBuffer.wrap(log));

        Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 6 manifests over 2 partition(s), "
                                + "chain continuous, all signatures valid; tail unverified (no --expect-head)");
        Verification deep = Verification.run(store, options.withDeep(true))
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.of(1L),
                        middle.objectKeys().getFirst() + " hashes to ");
        assertEquals(1, deep.partition(orders0.directory()).manifests(), "the walk stops at the break");
        assertEquals(3, deep.partition(orders1.directory()).manifests(), "the other partition is still checked");
        assertTrue(deep.partition(orders1.directory()).ok());
    }

    @Test
    void aRemovedIndexIsMissing() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        store.delete(middle.objectKeys().get(1));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.of(1L),
                        "object " + middle.objectKeys().get(1) + " is missing");
    }

    @Test
    void aTruncatedObjectHasTheWrongSize() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        byte[] log = TestArchive.content(middle.segment(), "log");
        store.put(middle.objectKeys().getFirst(), ByteBuffer.wrap(Arrays.copyOf(log, 999)));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.of(1L),
                        "the manifest records a size of 1000 bytes for "
                                + middle.objectKeys().getFirst() + ", the store holds 999");
    }

    @Test
    void aManifestRemovedFromTheMiddleBreaksTheNext() throws Exception {
        store.delete(orders0.segments().get(1).manifestKey());
        TestArchive.Written last = orders0.segments().get(2);
        Verification v = Verification.run(store, options)
                .assertBreak(orders0.directory(), last.manifestKey(), Optional.of(2L), "seq 2 follows seq 0");
        assertEquals(
                orders0.segments().get(1).objectKeys().stream().sorted().toList(),
                v.partition(orders0.directory()).orphanObjects(),
                "the removed manifest's objects are named by no manifest now");
    }

    @Test
    void swappedManifestsAreEachUnderTheOthersKey() throws Exception {
        TestArchive.Written second = orders0.segments().get(1);
        TestArchive.Written third = orders0.segments().get(2);
        byte[] secondJson = read(second.manifestKey());
        store.put(second.manifestKey(), ByteBuffer.wrap(read(third.manifestKey())));
        store.put(third.manifestKey(), ByteBuffer.wrap(secondJson));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        second.manifestKey(),
                        Optional.of(2L),
                        "the manifest's body belongs at " + third.manifestKey());
    }

    @Test
    void aManifestReplayedFromAnotherPartitionBelongsThere() throws Exception {
        TestArchive.Written target = orders0.segments().get(1);
        TestArchive.Written foreign = orders1.segments().get(1);
        store.put(target.manifestKey(), ByteBuffer.wrap(read(foreign.manifestKey())));
        Verification v = Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        target.manifestKey(),
                        Optional.of(1L),
                        "the manifest's body belongs at " + foreign.manifestKey());
        assertTrue(v.partition(orders1.directory()).ok());
    }

    @Test
    void aManifestResignedWithAnUntrustedKeyIsIncomplete() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        SegmentManifest manifest = ManifestJson.read(read(middle.manifestKey()));
        SealedManifest resigned = new ManifestSealer(Optional.of(OTHER_KEY))
                .seal(
                        manifest.body().segment(),
                        manifest.body().objects(),
                        manifest.body().chain());
        store.put(middle.manifestKey(), ByteBuffer.wrap(resigned.json()));
        Verification v = Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.INCOMPLETE,
                        "INCOMPLETE ATTESTATION: 0 manifest(s) unsigned, 1 signed by an untrusted key");
        assertEquals(1, v.partition(orders0.directory()).untrustedManifests());
        assertTrue(v.partition(orders0.directory()).ok(), "the body is unchanged: the chain still holds");
    }

    @Test
    void aSignatureThatFailsUnderTheTrustedKeyIsATamper() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        String json = new String(read(middle.manifestKey()), UTF_8);
        SegmentManifest manifest = ManifestJson.read(json.getBytes(UTF_8));
        String signature = Hex.encode(manifest.signature().orElseThrow().signature());
        String forged = json.replace(signature, Hex.encode(KEY.sign(new byte[] {1})));
        store.put(middle.manifestKey(), ByteBuffer.wrap(forged.getBytes(UTF_8)));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.of(1L),
                        "the signature does not verify under the key trusted as \"worm-1\"");
    }

    @Test
    void aManifestEditedAndResignedWithTheRightKeyBreaksTheChainAtTheNext() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        SegmentManifest manifest = ManifestJson.read(read(middle.manifestKey()));
        SegmentIdentity s = manifest.body().segment();
        SegmentIdentity edited = new SegmentIdentity(
                s.topic(),
                s.topicId(),
                s.partition(),
                s.segmentId(),
                s.startOffset(),
                s.endOffset(),
                s.maxTimestampMs() + 1,
                s.brokerId(),
                s.eventTimestampMs(),
                s.segmentSizeBytes(),
                s.leaderEpochs(),
                s.txnIndexEmpty());
        store.put(
                middle.manifestKey(),
                ByteBuffer.wrap(new ManifestSealer(Optional.of(KEY))
                        .seal(edited, manifest.body().objects(), manifest.body().chain())
                        .json()));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        orders0.segments().get(2).manifestKey(),
                        Optional.of(2L),
                        "is not the head of seq 1");
    }

    @Test
    void aTruncatedTailIsOkButUnverifiedWithoutAnExpectedHead() throws Exception {
        String expected = orders0.tip().hex();
        TestArchive.Written last = orders0.segments().get(2);
        store.delete(last.manifestKey());
        for (String key : last.objectKeys()) {
            store.delete(key);
        }
        Verification.run(store, options)
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 5 manifests over 2 partition(s), "
                                + "chain continuous, all signatures valid; tail unverified (no --expect-head)");
        Verification.run(
                        store,
                        options.withExpectedHeads(ExpectedHeads.parse(List.of(
                                orders0.directory() + "=" + expected,
                                orders1.directory() + "=" + orders1.tip().hex()))))
                .assertVerdict(
                        VerifyGrade.TAMPERED,
                        "HEAD MISMATCH: expected " + expected + ", archive tip "
                                + orders0.segments().get(1).head().hex() + " (" + orders0.directory() + ")");
    }

    @Test
    void anExpectedHeadThatMatchesVerifiesTheTail() throws Exception {
        Verification v = Verification.run(
                        store,
                        options.withPartition(0)
                                .withExpectedHeads(ExpectedHeads.parse(
                                        List.of(orders0.tip().hex()))))
                .assertVerdict(
                        VerifyGrade.OK,
                        "OK: 3 manifests over 1 partition(s), chain continuous, "
                                + "all signatures valid; tail verified against --expect-head");
        assertEquals(TailStatus.VERIFIED, v.partition(orders0.directory()).tail());
    }

    @Test
    void anOversizedManifestIsABreak() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        store.put(middle.manifestKey(), ByteBuffer.wrap(new byte[(int) ManifestJson.MAX_MANIFEST_BYTES + 1]));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.empty(),
                        "manifest object is 1048577 bytes, above the 1048576 byte cap");
    }

    @Test
    void aMalformedManifestIsABreak() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        store.put(middle.manifestKey(), ByteBuffer.wrap("{\"body\":{}}".getBytes(UTF_8)));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.empty(),
                        "malformed manifest: body.format_version: missing field");
    }

    @Test
    void aManifestNamingAnObjectOutsideItsDirectoryIsABreak() throws Exception {
        TestArchive.Written middle = orders0.segments().get(1);
        SegmentManifest manifest = ManifestJson.read(read(middle.manifestKey()));
        List<ObjectEntry> objects = new ArrayList<>(manifest.body().objects());
        TestArchive.Written foreign = orders1.segments().get(1);
        ObjectEntry entry = objects.getFirst();
        objects.set(
                0,
                new ObjectEntry(
                        entry.suffix(),
                        foreign.objectKeys().getFirst(),
                        entry.sizeBytes(),
                        entry.sha256(),
                        entry.eTag(),
                        entry.versionId(),
                        entry.createPrecondition()));
        store.put(
                middle.manifestKey(),
                ByteBuffer.wrap(new ManifestSealer(Optional.of(KEY))
                        .seal(
                                manifest.body().segment(),
                                objects,
                                manifest.body().chain())
                        .json()));
        Verification.run(store, options)
                .assertBreak(
                        orders0.directory(),
                        middle.manifestKey(),
                        Optional.of(1L),
                        "object " + foreign.objectKeys().getFirst() + " is not in the manifest's partition directory");
    }

    private byte[] read(String key) throws Exception {
        try (InputStream in = store.read(key)) {
            return in.readAllBytes();
        }
    }

    static byte[] filled(int value) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
