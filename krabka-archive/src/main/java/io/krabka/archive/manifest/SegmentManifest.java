package io.krabka.archive.manifest;

import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.TrustedKeys;
import java.util.Objects;
import java.util.Optional;

/**
 * A segment's manifest, {@code <base>-<segment id>.manifest} beside its objects: the archive's commit point, written
 * last.
 *
 * @param body      what it attests
 * @param signature the signature of the body's chain head, a sibling of the body and never a member of it; empty
 *                  for an unsigned manifest
 */
public record SegmentManifest(ManifestBody body, Optional<ManifestSignature> signature) {

    /** Validates the parts. */
    public SegmentManifest {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(signature, "signature");
    }

    /**
     * What the signature is worth to a verifier that trusts these keys: checked over the signing input of the
     * body's recomputed head; empty for an unsigned manifest.
     */
    public Optional<SignatureStatus> check(TrustedKeys keys) {
        if (signature.isEmpty()) {
            return Optional.empty();
        }
        ManifestSignature s = signature.get();
        byte[] input = ManifestSigningInput.of(s.keyId(), body.chain(), body.head());
        return Optional.of(keys.check(s.keyId(), s.publicKey(), s.signature(), input));
    }
}
