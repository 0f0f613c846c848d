package io.krabka.archive.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * An Ed25519 private key with the key id every signature made with it records. The id is configured, never
 * derived from the key, so a chain stays verifiable across a key rotation (the original's
 * {@code signing_key_id}).
 */
public final class SigningKey {

    private final String keyId;
    private final byte[] seed;
    private final byte[] publicKey;

    private SigningKey(String keyId, byte[] seed) {
        this.keyId = requireKeyId(keyId);
        if (seed.length != Ed25519.SECRET_KEY_SIZE) {
            throw new IllegalArgumentException(
                    "an Ed25519 private key has " + Ed25519.SECRET_KEY_SIZE + " bytes, not " + seed.length);
        }
        this.seed = seed.clone();
        this.publicKey = new byte[Ed25519.PUBLIC_KEY_SIZE];
        Ed25519.generatePublicKey(this.seed, 0, publicKey, 0);
    }

    /**
     * The key of an RFC 8032 private key (the 32-byte seed).
     *
     * @throws IllegalArgumentException if the key id is blank or the seed is not 32 bytes
     */
    public static SigningKey fromPrivateKey(String keyId, byte[] privateKey) {
        return new SigningKey(keyId, privateKey);
    }

    /**
     * Reads an Ed25519 private key in PKCS#8, v1 (RFC 5208) or v2 (RFC 5958, as {@code ring} writes it), as DER
     * or as PEM {@code PRIVATE KEY}.
     *
     * @param keyId the id the signatures record; not blank
     * @throws KeyFileException         if the file cannot be read or holds anything else
     * @throws IllegalArgumentException if the key id is blank
     */
    public static SigningKey readPkcs8(Path file, String keyId) throws KeyFileException {
        requireKeyId(keyId);
        byte[] contents;
        try {
            contents = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new KeyFileException(file, "cannot read the private key: " + e, e);
        }
        byte[] seed = Pkcs8Ed25519.privateKey(file, Pem.derOf(file, contents, "PRIVATE KEY"));
        try {
            return new SigningKey(keyId, seed);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    /** The id every signature made with this key records. */
    public String keyId() {
        return keyId;
    }

    /** The 32-byte public key, as signatures carry it. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The key that verifies this key's signatures. */
    public VerificationKey verificationKey() {
        return VerificationKey.of(publicKey);
    }

    /** The 64-byte Ed25519 signature of a message (RFC 8032, pure Ed25519, no context). */
    public byte[] sign(byte[] message) {
        byte[] signature = new byte[Ed25519.SIGNATURE_SIZE];
        Ed25519.sign(seed, 0, publicKey, 0, message, 0, message.length, signature, 0);
        return signature;
    }

    /** Names the key id only: a private key never reaches a log. */
    @Override
    public String toString() {
        return "SigningKey[" + keyId + "]";
    }

    static String requireKeyId(String keyId) {
        Objects.requireNonNull(keyId, "keyId");
        if (keyId.isBlank()) {
            throw new IllegalArgumentException("a key id must not be blank");
        }
        return keyId;
    }
}
