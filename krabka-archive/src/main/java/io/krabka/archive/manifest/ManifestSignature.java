package io.krabka.archive.manifest;

import io.krabka.archive.internal.Hex;
import java.util.Arrays;
import java.util.Objects;

/**
 * An Ed25519 signature and the key id and public key its signer claims: the sibling of a manifest's body, and of
 * an abandonment record's fields. A verifier checks it against the key it trusts under the key id and never
 * against the carried public key, which only lets a reader see which key signed.
 *
 * @param keyId     the signer's configured key id
 * @param publicKey the public key the signer claims; copied in and out
 * @param signature the signature; copied in and out
 */
public record ManifestSignature(String keyId, byte[] publicKey, byte[] signature) {

    /** Validates and copies the parts. */
    public ManifestSignature {
        Objects.requireNonNull(keyId, "keyId");
        publicKey = Objects.requireNonNull(publicKey, "publicKey").clone();
        signature = Objects.requireNonNull(signature, "signature").clone();
    }

    /** A copy of the carried public key. */
    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** A copy of the signature. */
    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ManifestSignature that
                && keyId.equals(that.keyId)
                && Arrays.equals(publicKey, that.publicKey)
                && Arrays.equals(signature, that.signature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keyId, Arrays.hashCode(publicKey), Arrays.hashCode(signature));
    }

    @Override
    public String toString() {
        return "ManifestSignature[keyId=" + keyId + ", publicKey=" + Hex.encode(publicKey) + ", signature="
                + Hex.encode(signature) + "]";
    }
}
