package io.krabka.archive.keys;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The public keys a verifier trusts, by key id. A signature is checked against the key held under its key id and
 * never against the public key it carries (the original's {@code TrustedManifestKeys}).
 */
public final class TrustedKeys {

    private static final TrustedKeys NONE = new TrustedKeys(Map.of());

    private final Map<String, VerificationKey> keys;

    private TrustedKeys(Map<String, VerificationKey> keys) {
        this.keys = keys;
    }

    /** No trusted key: every signature is untrusted. */
    public static TrustedKeys none() {
        return NONE;
    }

    /**
     * The given keys.
     *
     * @throws IllegalArgumentException if a key id is blank
     */
    public static TrustedKeys of(Map<String, VerificationKey> keys) {
        Map<String, VerificationKey> copy = new TreeMap<>();
        keys.forEach((keyId, key) -> copy.put(SigningKey.requireKeyId(keyId), Objects.requireNonNull(key, "key")));
        return new TrustedKeys(Collections.unmodifiableMap(copy));
    }

    /**
     * These keys and one more.
     *
     * @throws IllegalArgumentException if the key id is blank or already trusted
     */
    public TrustedKeys with(String keyId, VerificationKey key) {
        if (keys.containsKey(keyId)) {
            throw new IllegalArgumentException("key id \"" + keyId + "\" is given twice");
        }
        Map<String, VerificationKey> more = new TreeMap<>(keys);
        more.put(SigningKey.requireKeyId(keyId), Objects.requireNonNull(key, "key"));
        return new TrustedKeys(Collections.unmodifiableMap(more));
    }

    /** The key trusted under an id. */
    public Optional<VerificationKey> get(String keyId) {
        return Optional.ofNullable(keys.get(keyId));
    }

    /** The trusted key ids, sorted. */
    public Set<String> keyIds() {
        return keys.keySet();
    }

    /**
     * What a signature is worth: checked against the key trusted under {@code keyId}, if any, and only when the
     * public key it carries is that key.
     *
     * @param keyId             the key id the signature records
     * @param carriedPublicKey  the public key the signature carries
     * @param signature         the signature
     * @param message           the bytes signed, built with {@code keyId}
     */
    public SignatureStatus check(String keyId, byte[] carriedPublicKey, byte[] signature, byte[] message) {
        VerificationKey trusted = keys.get(keyId);
        if (trusted == null) {
            return SignatureStatus.UNKNOWN_KEY_ID;
        }
        if (!trusted.hasEncoding(carriedPublicKey)) {
            return SignatureStatus.FOREIGN_PUBLIC_KEY;
        }
        return trusted.verify(message, signature) ? SignatureStatus.VALID : SignatureStatus.INVALID;
    }
}
