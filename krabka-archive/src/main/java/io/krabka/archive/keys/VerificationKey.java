package io.krabka.archive.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * An Ed25519 public key that passed full validation, and strict verification under it.
 *
 * <p>Strict, because an archive is attested by anyone who can make a signature verify: the key must be a
 * canonically encoded point of prime order (small-order and mixed-order keys are refused, since a signature under
 * them can verify for more than one message); a signature's {@code S} must be below the group order {@code L}
 * (else {@code S + L} would be a second valid signature); and its {@code R} must be a point of prime order too
 * (a small-order {@code R} is the identity in a cofactorless check, which only a forger needs).
 */
public final class VerificationKey {

    private final byte[] encoded;
    private final Ed25519.PublicPoint point;

    private VerificationKey(byte[] encoded, Ed25519.PublicPoint point) {
        this.encoded = encoded;
        this.point = point;
    }

    /**
     * The key of a 32-byte RFC 8032 encoding.
     *
     * @throws IllegalArgumentException if it is not 32 bytes, not a canonical point encoding, or not of prime
     *                                  order
     */
    public static VerificationKey of(byte[] encoded) {
        if (encoded.length != Ed25519.PUBLIC_KEY_SIZE) {
            throw new IllegalArgumentException(
                    "an Ed25519 public key has " + Ed25519.PUBLIC_KEY_SIZE + " bytes, not " + encoded.length);
        }
        Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(encoded, 0);
        if (point == null) {
            throw new IllegalArgumentException("not a valid Ed25519 public key (a canonical point of prime order): "
                    + HexFormat.of().formatHex(encoded));
        }
        return new VerificationKey(encoded.clone(), point);
    }

    /**
     * Reads a public key file: the raw 32 bytes, or PEM {@code PUBLIC KEY} (SubjectPublicKeyInfo, RFC 8410).
     *
     * @throws KeyFileException naming the file, for an unreadable file, another form or an invalid key
     */
    public static VerificationKey readFile(Path file) throws KeyFileException {
        byte[] contents;
        try {
            contents = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new KeyFileException(file, "cannot read the public key: " + e, e);
        }
        byte[] raw;
        if (contents.length == Ed25519.PUBLIC_KEY_SIZE) {
            raw = contents;
        } else if (Pem.isPem(contents)) {
            raw = subjectPublicKey(file, Pem.derOf(file, contents, "PUBLIC KEY"));
        } else {
            throw new KeyFileException(
                    file,
                    "is neither a raw 32-byte Ed25519 public key nor PEM \"PUBLIC KEY\" (" + contents.length
                            + " bytes)");
        }
        try {
            return of(raw);
        } catch (IllegalArgumentException e) {
            throw new KeyFileException(file, e.getMessage(), e);
        }
    }

    /** The 32-byte encoding. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** Whether the key's encoding is these bytes. */
    public boolean hasEncoding(byte[] candidate) {
        return Arrays.equals(encoded, candidate);
    }

    /**
     * Whether a signature is this key's Ed25519 signature of the message, checked strictly (see the class
     * comment). Any signature that is not exactly 64 bytes is not.
     */
    public boolean verify(byte[] message, byte[] signature) {
        if (signature.length != Ed25519.SIGNATURE_SIZE) {
            return false;
        }
        // R is a point's encoding in the signature's first 32 bytes; BouncyCastle checks S < L itself.
        if (!Ed25519.validatePublicKeyFull(signature, 0)) {
            return false;
        }
        return Ed25519.verify(signature, 0, point, message, 0, message.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VerificationKey that && Arrays.equals(encoded, that.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return "VerificationKey[" + HexFormat.of().formatHex(encoded) + "]";
    }

    private static byte[] subjectPublicKey(Path file, byte[] der) throws KeyFileException {
        SubjectPublicKeyInfo info;
        try {
            info = SubjectPublicKeyInfo.getInstance(ASN1Primitive.fromByteArray(der));
        } catch (IOException | RuntimeException e) {
            throw new KeyFileException(file, "holds a PEM \"PUBLIC KEY\" that is not a SubjectPublicKeyInfo", e);
        }
        Pkcs8Ed25519.requireEd25519(file, info.getAlgorithm());
        return info.getPublicKeyData().getOctets();
    }
}
