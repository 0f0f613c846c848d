package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ManifestBody;
import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.archive.verify.AbandonmentCheck;
import io.krabka.archive.verify.ArchiveUnreadableException;
import io.krabka.archive.verify.ManifestChain;
import io.krabka.archive.verify.StoreReads;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.AuthenticationException;
import io.krabka.kernel.restore.UnreadableArchiveException;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.StoredObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The authentication of one partition's chain, by the rules {@code krabka verify} walks it with
 * ({@link ManifestChain}, {@link AbandonmentCheck}), held stricter where a restore needs more than a grade: every
 * copy is vouched for by a manifest signed by a trusted key (unsigned and untrusted are failures, not counts),
 * every abandonment record is taken at its word or fails, and a chain restart must not leave offsets behind (see
 * the package documentation). The first failure stops the walk. One instance per partition, used by one thread.
 */
final class PartitionChainWalk {

    private final StoreReads reads;
    private final ArchiveLayout layout;
    private final TrustedKeys trustedKeys;
    private final ManifestChain chain;
    private final Map<Uuid, List<ObjectEntry>> claims = new HashMap<>();
    private int manifests;

    PartitionChainWalk(StoreReads reads, ArchiveLayout layout, TrustedKeys trustedKeys) {
        this.reads = reads;
        this.layout = layout;
        this.trustedKeys = trustedKeys;
        this.chain = new ManifestChain(layout, trustedKeys);
    }

    /**
     * Walks the partition's chain in key (that is, offset) order, as verify does.
     *
     * @throws AuthenticationException    naming the first object the chain does not vouch for
     * @throws UnreadableArchiveException if the store fails a read
     */
    AuthenticatedChain walk(ArchivedPartition partition) throws AuthenticationException, UnreadableArchiveException {
        List<StoredObject> chained = new ArrayList<>();
        for (ArchivedSegment segment : partition.segments()) {
            if (segment.abandoned().isPresent()) {
                // Its manifest, if the copy got that far, is left out of the chain: the retry reused its place.
                acceptAbandonment(segment.abandoned().get());
            } else {
                chained.add(segment.manifest()
                        .orElseThrow(() -> new AuthenticationException(
                                manifestKey(partition, segment),
                                "no manifest vouches for the copy: the chain does not cover it")));
            }
        }
        chained.sort(Comparator.comparing(StoredObject::key));
        Optional<ManifestBody> previous = Optional.empty();
        for (StoredObject manifest : chained) {
            previous = Optional.of(step(manifest.key(), read(manifest.key()), previous));
        }
        return new AuthenticatedChain(claims, manifests, chain.tip());
    }

    /**
     * A partition's chain, authenticated.
     *
     * @param claims    the objects each manifest lists, by segment id
     * @param manifests how many manifests the chain holds
     * @param tip       the head of its last manifest; empty when every copy was abandoned
     */
    record AuthenticatedChain(Map<Uuid, List<ObjectEntry>> claims, int manifests, Optional<ChainHead> tip) {}

    private ManifestBody step(String key, SegmentManifest manifest, Optional<ManifestBody> previous)
            throws AuthenticationException {
        Optional<SignatureStatus> signature = switch (chain.check(key, manifest)) {
            case ManifestChain.Step.Breaks breaks -> throw new AuthenticationException(key, breaks.reason());
            case ManifestChain.Step.Follows follows -> follows.signature();
        };
        if (signature.isEmpty()) {
            throw new AuthenticationException(key, "the manifest is unsigned");
        }
        String keyId = manifest.signature().orElseThrow().keyId();
        switch (signature.get()) {
            case UNKNOWN_KEY_ID ->
                throw new AuthenticationException(
                        key, "the manifest is signed under key id \"" + keyId + "\", which is not trusted");
            case FOREIGN_PUBLIC_KEY ->
                throw new AuthenticationException(
                        key, "the manifest carries a public key " + "other than the one trusted as \"" + keyId + "\"");
            case VALID, INVALID -> {
                // INVALID never follows: the chain breaks at a forged signature.
            }
        }
        ManifestBody body = manifest.body();
        if (previous.isPresent()
                && !previous.get().chain().epochId().equals(body.chain().epochId())
                && body.segment().startOffset() > previous.get().segment().endOffset() + 1) {
            throw new AuthenticationException(
                    key,
                    "the chain restarts at offset " + body.segment().startOffset()
                            + ", above offset " + previous.get().segment().endOffset()
                            + " where the epoch before ends: "
                            + "that epoch's last manifests may be gone");
        }
        chain.append(manifest);
        claims.put(body.segment().segmentId(), body.objects());
        manifests++;
        return body;
    }

    private SegmentManifest read(String key) throws AuthenticationException, UnreadableArchiveException {
        byte[] json = switch (document(key, ManifestJson.MAX_MANIFEST_BYTES)) {
            case StoreReads.Document.Found found -> found.bytes();
            case StoreReads.Document.Missing missing ->
                throw new AuthenticationException(key, "the manifest is gone from the store");
            case StoreReads.Document.TooLarge large ->
                throw new AuthenticationException(
                        key,
                        "the manifest is " + large.size() + " bytes, above the " + ManifestJson.MAX_MANIFEST_BYTES
                                + " byte cap");
        };
        try {
            return ManifestJson.read(json);
        } catch (ArchiveFormatException e) {
            throw new AuthenticationException(key, e.getMessage());
        }
    }

    private void acceptAbandonment(StoredObject record) throws AuthenticationException, UnreadableArchiveException {
        String key = record.key();
        Optional<String> refusal = switch (document(key, AbandonmentRecord.MAX_RECORD_BYTES)) {
            case StoreReads.Document.Missing missing -> Optional.of("it is gone from the store");
            case StoreReads.Document.TooLarge large ->
                Optional.of("it is " + large.size() + " bytes, above the " + AbandonmentRecord.MAX_RECORD_BYTES
                        + " byte cap");
            case StoreReads.Document.Found found ->
                switch (AbandonmentCheck.judge(key, found.bytes(), layout, trustedKeys)) {
                    case AbandonmentCheck.Verdict.Accepted accepted -> Optional.empty();
                    case AbandonmentCheck.Verdict.Rejected rejected -> Optional.of(rejected.reason());
                };
        };
        if (refusal.isPresent()) {
            // The restore skips an abandoned copy: a record it cannot take at its word would drop a segment unseen.
            throw new AuthenticationException(key, "the abandonment record excuses nothing: " + refusal.get());
        }
    }

    private StoreReads.Document document(String key, long maxBytes) throws UnreadableArchiveException {
        try {
            return reads.document(key, maxBytes);
        } catch (ArchiveUnreadableException e) {
            throw new UnreadableArchiveException(e.getMessage(), e);
        }
    }

    /** The key the copy's manifest would have; the legacy layout has none, so its first object stands for it. */
    private String manifestKey(ArchivedPartition partition, ArchivedSegment segment) {
        if (segment.startOffset().isPresent()) {
            return layout.keyPrefix() + partition.directory() + "/"
                    + ArchiveLayout.segmentStem(segment.startOffset().getAsLong(), segment.segmentId()) + "."
                    + ArchiveLayout.MANIFEST_SUFFIX;
        }
        return segment.objects().values().stream()
                .map(StoredObject::key)
                .sorted()
                .findFirst()
                .orElse(partition.directory());
    }
}
