package io.krabka.archive.keys;

/** What a signature is worth to a verifier that trusts a given set of keys. */
public enum SignatureStatus {
    /** Made by the key trusted under its key id. */
    VALID,
    /** Its key id is not among the trusted keys: it attests nothing. */
    UNKNOWN_KEY_ID,
    /**
     * Its key id is trusted, but the public key it carries is not the trusted one: it attests nothing, and it is
     * not checked, since the carried key is the signer's claim and never the verifier's.
     */
    FOREIGN_PUBLIC_KEY,
    /** Its key id and carried key are the trusted ones, and it does not verify under that key: a forgery. */
    INVALID;

    /** Whether the signature attests its document. */
    public boolean valid() {
        return this == VALID;
    }

    /** Whether the signature fails under a trusted key, which is tampering rather than missing attestation. */
    public boolean forged() {
        return this == INVALID;
    }
}
