package io.krabka.archive.verify;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ManifestBody;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.SegmentManifest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition's manifests as a reader walks them in key (that is, offset) order, whoever the reader is:
 * {@code krabka verify} and the authenticated {@code krabka restore} both step through this, so both hold a
 * manifest to the same rules. A manifest may come next when it sits at the key its body names (a swapped or
 * replayed manifest does not), when it links to the chain so far (see {@link ChainLinkage}), and when its
 * signature does not fail under the key trusted under its key id. Whether an unsigned or untrusted signature is
 * acceptable is the reader's to say. One instance per partition, used by one thread.
 */
public final class ManifestChain {

    private final ArchiveLayout layout;
    private final TrustedKeys trustedKeys;
    private final ChainLinkage linkage = new ChainLinkage();

    /** A chain with no manifest yet, of an archive under {@code layout}, judged under {@code trustedKeys}. */
    public ManifestChain(ArchiveLayout layout, TrustedKeys trustedKeys) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.trustedKeys = Objects.requireNonNull(trustedKeys, "trustedKeys");
    }

    /** Whether a manifest may come next in the chain, and if so what its signature is worth. */
    public sealed interface Step {
        /**
         * The manifest may come next.
         *
         * @param signature what its signature is worth; empty for an unsigned manifest
         */
        record Follows(Optional<SignatureStatus> signature) implements Step {
            /** Validates the part. */
            public Follows {
                Objects.requireNonNull(signature, "signature");
            }
        }

        /**
         * The manifest breaks the chain.
         *
         * @param reason why, in one line
         */
        record Breaks(String reason) implements Step {
            /** Validates the part. */
            public Breaks {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /**
     * Checks the manifest read at {@code key} against the chain so far, without appending it: a reader's own
     * checks (of the objects it names) may come between this and {@link #append}.
     */
    public Step check(String key, SegmentManifest manifest) {
        ManifestBody body = manifest.body();
        SegmentIdentity segment = body.segment();
        String expectedKey = layout.segmentKey(
                segment.topic(),
                segment.partition(),
                segment.topicId(),
                segment.startOffset(),
                segment.segmentId(),
                ArchiveLayout.MANIFEST_SUFFIX);
        if (!expectedKey.equals(key)) {
            return new Step.Breaks("the manifest's body belongs at " + expectedKey);
        }
        Optional<String> unlinked = linkage.check(body.chain());
        if (unlinked.isPresent()) {
            return new Step.Breaks(unlinked.get());
        }
        Optional<SignatureStatus> signature = manifest.check(trustedKeys);
        if (signature.isPresent() && signature.get().forged()) {
            return new Step.Breaks("the signature does not verify under the key trusted as \""
                    + manifest.signature().orElseThrow().keyId() + "\"");
        }
        return new Step.Follows(signature);
    }

    /** Appends a manifest that {@link #check} let follow: its head becomes the tip. */
    public void append(SegmentManifest manifest) {
        ManifestBody body = manifest.body();
        linkage.append(
                body.chain(),
                body.head(),
                body.segment().startOffset(),
                body.segment().endOffset());
    }

    /** The epochs so far, in the order they began. */
    public List<EpochSpan> epochs() {
        return linkage.epochs();
    }

    /** The head of the last manifest appended; empty before the first. */
    public Optional<ChainHead> tip() {
        return linkage.tip();
    }
}
