package io.krabka.archive.manifest;

import io.krabka.archive.keys.SigningKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes the manifests a writer stores: the body of a segment's objects at a chain position, its head, the
 * signature of that head, and the JSON. Without a signing key the manifests are unsigned, which a verifier grades
 * as incomplete attestation.
 */
public final class ManifestSealer {

    private final Optional<SigningKey> signingKey;

    /** A sealer that signs with the given key, or leaves manifests unsigned when there is none. */
    public ManifestSealer(Optional<SigningKey> signingKey) {
        this.signingKey = Objects.requireNonNull(signingKey, "signingKey");
    }

    /**
     * The manifest of a segment's objects at a chain position.
     *
     * @throws IllegalArgumentException if the manifest's JSON would be above {@link ManifestJson#MAX_MANIFEST_BYTES},
     *                                  which no reader would read
     */
    public SealedManifest seal(SegmentIdentity segment, List<ObjectEntry> objects, ChainStamp chain) {
        ManifestBody body = new ManifestBody(segment, objects, chain);
        ChainHead head = body.head();
        Optional<ManifestSignature> signature = signingKey.map(key -> new ManifestSignature(
                key.keyId(), key.publicKey(), key.sign(ManifestSigningInput.of(key.keyId(), chain, head))));
        SegmentManifest manifest = new SegmentManifest(body, signature);
        byte[] json = ManifestJson.write(manifest);
        if (json.length > ManifestJson.MAX_MANIFEST_BYTES) {
            throw new IllegalArgumentException("the manifest of " + segment.segmentId() + " would be " + json.length
                    + " bytes, above the " + ManifestJson.MAX_MANIFEST_BYTES + " byte cap");
        }
        return new SealedManifest(manifest, head, json);
    }
}
