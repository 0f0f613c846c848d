package io.krabka.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.archive.manifest.ManifestSealer;
import io.krabka.archive.manifest.ManifestSignature;
import io.krabka.archive.manifest.SealedManifest;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The public step through a partition's chain, without a store: placement, linkage and signature, in that order. */
class ManifestChainStepTest {

    private static final ArchiveLayout LAYOUT = new ArchiveLayout("tier");
    private static final Uuid TOPIC_ID = new Uuid(0x0123, 0x4567);
    private static final Uuid EPOCH = new Uuid(0x5EED, 1);
    private static final TrustedKeys TRUSTED =
            TrustedKeys.of(Map.of("worm-1", ArchiveTamperTest.KEY.verificationKey()));

    private final ManifestChain chain = new ManifestChain(LAYOUT, TRUSTED);

    private static SealedManifest seal(Optional<SigningKey> key, long start, ChainStamp stamp) {
        SegmentIdentity segment = new SegmentIdentity(
                "orders",
                TOPIC_ID,
                0,
                new Uuid(0xC0FFEE, start),
                start,
                start + 99,
                0,
                1,
                0,
                1000,
                new TreeMap<>(Map.of(0, start)),
                true);
        return new ManifestSealer(key).seal(segment, List.of(), stamp);
    }

    private static String keyOf(SegmentManifest manifest) {
        SegmentIdentity s = manifest.body().segment();
        return LAYOUT.segmentKey(s.topic(), s.partition(), s.topicId(), s.startOffset(), s.segmentId(), "manifest");
    }

    private ManifestChain.Step step(SealedManifest sealed) {
        return chain.check(keyOf(sealed.manifest()), sealed.manifest());
    }

    @Test
    void linkedManifestsFollowAndTheLastHeadIsTheTip() {
        SealedManifest first = seal(Optional.of(ArchiveTamperTest.KEY), 0, ChainStamp.genesis(EPOCH));
        assertEquals(new ManifestChain.Step.Follows(Optional.of(SignatureStatus.VALID)), step(first));
        chain.append(first.manifest());
        SealedManifest second = seal(
                Optional.of(ArchiveTamperTest.KEY),
                100,
                ChainStamp.genesis(EPOCH).successor(first.head()).orElseThrow());
        assertEquals(new ManifestChain.Step.Follows(Optional.of(SignatureStatus.VALID)), step(second));
        chain.append(second.manifest());
        assertEquals(Optional.of(second.head()), chain.tip());
        assertEquals(1, chain.epochs().size());
    }

    @Test
    void aManifestAtAnotherSegmentsKeyBreaksBeforeAnythingElse() {
        SealedManifest first = seal(Optional.of(ArchiveTamperTest.KEY), 0, ChainStamp.genesis(EPOCH));
        SealedManifest other = seal(Optional.of(ArchiveTamperTest.KEY), 100, ChainStamp.genesis(EPOCH));
        assertEquals(
                new ManifestChain.Step.Breaks("the manifest's body belongs at " + keyOf(first.manifest())),
                chain.check(keyOf(other.manifest()), first.manifest()));
        assertEquals(Optional.empty(), chain.tip(), "a check appends nothing");
    }

    @Test
    void aManifestThatDoesNotLinkBreaks() {
        SealedManifest first = seal(
                Optional.of(ArchiveTamperTest.KEY),
                0,
                new ChainStamp(EPOCH, 1, ChainStamp.genesis(EPOCH).prevHead()));
        assertEquals(
                new ManifestChain.Step.Breaks("epoch " + "00000000-0000-5eed-0000-000000000001"
                        + " starts at seq 1, not 0: its first manifests are missing"),
                step(first));
    }

    @Test
    void aForgedSignatureBreaksAndUnsignedOrUntrustedOnesAreTheReadersToJudge() {
        SealedManifest foreign = seal(Optional.of(ArchiveTamperTest.OTHER_KEY), 0, ChainStamp.genesis(EPOCH));
        assertEquals(new ManifestChain.Step.Follows(Optional.of(SignatureStatus.FOREIGN_PUBLIC_KEY)), step(foreign));
        assertEquals(
                new ManifestChain.Step.Follows(Optional.empty()),
                step(seal(Optional.empty(), 0, ChainStamp.genesis(EPOCH))));
        SegmentManifest signed = seal(Optional.of(ArchiveTamperTest.KEY), 0, ChainStamp.genesis(EPOCH))
                .manifest();
        SegmentManifest forged = new SegmentManifest(
                signed.body(),
                Optional.of(new ManifestSignature(
                        "worm-1", ArchiveTamperTest.KEY.publicKey(), ArchiveTamperTest.KEY.sign(new byte[] {1}))));
        assertEquals(
                new ManifestChain.Step.Breaks("the signature does not verify under the key trusted as \"worm-1\""),
                chain.check(keyOf(forged), forged));
    }
}
