package io.krabka.archive.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The Ed25519 keys of PKCS#8 and SubjectPublicKeyInfo structures (RFC 8410): algorithm {@code id-Ed25519} with
 * no parameters, the private key an OCTET STRING of the 32-byte seed.
 */
final class Pkcs8Ed25519 {

    /** {@code id-Ed25519}, RFC 8410. */
    static final ASN1ObjectIdentifier ID_ED25519 = new ASN1ObjectIdentifier("1.3.101.112");

    private Pkcs8Ed25519() {}

    /**
     * The 32-byte seed of a PKCS#8 v1 or v2 DER structure; a v2 structure's public key, when present, must be
     * the seed's own.
     *
     * @throws KeyFileException naming the file, for anything else
     */
    static byte[] privateKey(Path file, byte[] der) throws KeyFileException {
        PrivateKeyInfo info;
        try {
            info = PrivateKeyInfo.getInstance(ASN1Primitive.fromByteArray(der));
        } catch (IOException | RuntimeException e) {
            throw new KeyFileException(file, "is not a PKCS#8 private key (DER or PEM \"PRIVATE KEY\")", e);
        }
        int version = info.getVersion().intValueExact();
        if (version != 0 && version != 1) {
            throw new KeyFileException(file, "is PKCS#8 version " + (version + 1) + "; this reads versions 1 and 2");
        }
        requireEd25519(file, info.getPrivateKeyAlgorithm());
        byte[] seed;
        try {
            ASN1Encodable inner = info.parsePrivateKey();
            seed = ASN1OctetString.getInstance(inner).getOctets();
        } catch (IOException | RuntimeException e) {
            throw new KeyFileException(file, "holds an Ed25519 private key that is not an OCTET STRING", e);
        }
        if (seed.length != Ed25519.SECRET_KEY_SIZE) {
            throw new KeyFileException(
                    file, "holds an Ed25519 private key of " + seed.length + " bytes, not " + Ed25519.SECRET_KEY_SIZE);
        }
        if (info.hasPublicKey()) {
            byte[] derived = new byte[Ed25519.PUBLIC_KEY_SIZE];
            Ed25519.generatePublicKey(seed, 0, derived, 0);
            if (!Arrays.equals(derived, info.getPublicKeyData().getOctets())) {
                throw new KeyFileException(file, "holds a public key that is not its private key's");
            }
        }
        return seed;
    }

    /**
     * Checks that an algorithm is {@code id-Ed25519} with absent parameters, as RFC 8410 requires.
     *
     * @throws KeyFileException naming the file and the algorithm it found
     */
    static void requireEd25519(Path file, AlgorithmIdentifier algorithm) throws KeyFileException {
        if (!ID_ED25519.equals(algorithm.getAlgorithm())) {
            throw new KeyFileException(
                    file,
                    "holds a key of algorithm " + algorithm.getAlgorithm().getId() + ", not Ed25519 (1.3.101.112)");
        }
        if (algorithm.getParameters() != null) {
            throw new KeyFileException(file, "holds an Ed25519 key with algorithm parameters, which RFC 8410 forbids");
        }
    }
}
