package io.krabka.archive.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VerificationKeyTest {

    private static final String SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    private static final String PUBLIC = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
    private static final String PUBLIC_PEM = "-----BEGIN PUBLIC KEY-----\n"
            + "MCowBQYDK2VwAyEAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=\n-----END PUBLIC KEY-----\n";
    /** {@link #PUBLIC} plus a point of order 8, computed with the curve's affine addition formula. */
    private static final String MIXED_ORDER = "b502ff3d92e31d8190b4aa4ea0414005167fad089c4de9dac8a2fc850fed4f58";
    /** The group order L. */
    private static final BigInteger L =
            BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));

    private static final byte[] MESSAGE = "krabka".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void readsARaw32ByteFile() throws Exception {
        VerificationKey key = VerificationKey.readFile(Files.write(dir.resolve("raw"), hex(PUBLIC)));
        assertArrayEquals(hex(PUBLIC), key.encoded());
    }

    @Test
    void readsAPemSubjectPublicKeyInfo() throws Exception {
        Path file = Files.writeString(dir.resolve("key.pem"), PUBLIC_PEM);
        assertEquals(VerificationKey.of(hex(PUBLIC)), VerificationKey.readFile(file));
    }

    @Test
    void refusesOtherFiles() throws Exception {
        assertRefused(Files.write(dir.resolve("short"), new byte[31]), "is neither a raw 32-byte Ed25519 public key");
        // DER SubjectPublicKeyInfo is 44 bytes: only its PEM form is read, so a raw key is never mistaken for it.
        assertRefused(Files.write(dir.resolve("spki.der"), hex("302a300506032b6570032100" + PUBLIC)), "(44 bytes)");
        assertRefused(
                Files.writeString(
                        dir.resolve("private.pem"),
                        "-----BEGIN PRIVATE KEY-----\n"
                                + "MC4CAQAwBQYDK2VwBCIEIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f\n-----END PRIVATE KEY-----\n"),
                "holds a PEM \"PRIVATE KEY\" block, not \"PUBLIC KEY\"");
        assertRefused(
                Files.writeString(
                        dir.resolve("x25519.pem"),
                        "-----BEGIN PUBLIC KEY-----\n"
                                + "MCowBQYDK2VuAyEAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=\n-----END PUBLIC KEY-----\n"),
                "not Ed25519");
        assertRefused(dir.resolve("absent"), "cannot read the public key");
    }

    /** The eight points of small order, in canonical encoding, and non-canonical encodings of two of them. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "0100000000000000000000000000000000000000000000000000000000000000",
                "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                "0000000000000000000000000000000000000000000000000000000000000000",
                "0000000000000000000000000000000000000000000000000000000000000080",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
                "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                "0100000000000000000000000000000000000000000000000000000000000080",
            })
    void refusesSmallOrderKeys(String encoded) throws Exception {
        assertThrows(IllegalArgumentException.class, () -> VerificationKey.of(hex(encoded)));
        assertRefused(Files.write(dir.resolve("small"), hex(encoded)), "not a valid Ed25519 public key");
    }

    @Test
    void refusesAMixedOrderKey() {
        assertTrue(Ed25519.validatePublicKeyPartial(hex(MIXED_ORDER), 0), "the point is on the curve");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> VerificationKey.of(hex(MIXED_ORDER)));
        assertTrue(e.getMessage().contains("of prime order"), e.getMessage());
    }

    @Test
    void verifiesItsKeysSignatures() {
        SigningKey key = SigningKey.fromPrivateKey("k", hex(SEED));
        byte[] signature = key.sign(MESSAGE);
        assertTrue(key.verificationKey().verify(MESSAGE, signature));
        assertFalse(key.verificationKey().verify("krabkb".getBytes(StandardCharsets.US_ASCII), signature));
        assertFalse(key.verificationKey().verify(MESSAGE, Arrays.copyOf(signature, 63)));
        assertFalse(key.verificationKey().verify(MESSAGE, Arrays.copyOf(signature, 65)));
    }

    @Test
    void refusesANonCanonicalS() {
        SigningKey key = SigningKey.fromPrivateKey("k", hex(SEED));
        byte[] signature = key.sign(MESSAGE);
        BigInteger s = littleEndian(Arrays.copyOfRange(signature, 32, 64));
        byte[] malleated = signature.clone();
        System.arraycopy(toLittleEndian(s.add(L)), 0, malleated, 32, 32);
        assertFalse(
                key.verificationKey().verify(MESSAGE, malleated), "S + L is the same scalar, not a second signature");
    }

    @Test
    void refusesASmallOrderR() throws Exception {
        // With R the identity, S = k·a mod L satisfies the cofactorless check [S]B = R + [k]A: a signature only
        // a holder of the key can make, but one that no honest signer ever makes.
        byte[] seed = hex(SEED);
        byte[] h = MessageDigest.getInstance("SHA-512").digest(seed);
        byte[] scalar = Arrays.copyOf(h, 32);
        scalar[0] &= (byte) 248;
        scalar[31] &= 127;
        scalar[31] |= 64;
        byte[] r = new byte[32];
        r[0] = 1;
        MessageDigest sha512 = MessageDigest.getInstance("SHA-512");
        sha512.update(r);
        sha512.update(hex(PUBLIC));
        sha512.update(MESSAGE);
        BigInteger k = littleEndian(sha512.digest()).mod(L);
        BigInteger s = k.multiply(littleEndian(scalar)).mod(L);
        byte[] signature = new byte[64];
        System.arraycopy(r, 0, signature, 0, 32);
        System.arraycopy(toLittleEndian(s), 0, signature, 32, 32);

        assertTrue(
                Ed25519.verify(signature, 0, hex(PUBLIC), 0, MESSAGE, 0, MESSAGE.length),
                "the signature passes BouncyCastle's own check, so the R check is what refuses it");
        assertFalse(VerificationKey.of(hex(PUBLIC)).verify(MESSAGE, signature));
    }

    private void assertRefused(Path file, String reason) {
        KeyFileException e = assertThrows(KeyFileException.class, () -> VerificationKey.readFile(file));
        assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    private static BigInteger littleEndian(byte[] bytes) {
        byte[] bigEndian = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            bigEndian[i] = bytes[bytes.length - 1 - i];
        }
        return new BigInteger(1, bigEndian);
    }

    private static byte[] toLittleEndian(BigInteger value) {
        byte[] out = new byte[32];
        byte[] bigEndian = value.toByteArray();
        for (int i = 0; i < 32 && i < bigEndian.length; i++) {
            out[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return out;
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
