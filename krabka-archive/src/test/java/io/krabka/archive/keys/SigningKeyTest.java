package io.krabka.archive.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigningKeyTest {

    /** The RFC 8032 private key 00 01 .. 1f and its public key, as Python's {@code cryptography} derives it. */
    private static final String SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    private static final String PUBLIC = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
    /** PKCS#8 v1 (RFC 5208), as OpenSSL and Python write it. */
    private static final String V1 = "302e020100300506032b657004220420" + SEED;
    /** PKCS#8 v2 (RFC 5958) with the public key as {@code [1] IMPLICIT BIT STRING}, as current ring writes it. */
    private static final String V2 = "3051020101300506032b657004220420" + SEED + "812100" + PUBLIC;
    /** PKCS#8 v2 with the {@code [1] EXPLICIT} public key older ring versions write, which ring still reads. */
    private static final String V2_EXPLICIT = "3053020101300506032b657004220420" + SEED + "a123032100" + PUBLIC;

    private static final String V1_PEM = "-----BEGIN PRIVATE KEY-----\n"
            + "MC4CAQAwBQYDK2VwBCIEIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f\n"
            + "-----END PRIVATE KEY-----\n";

    @TempDir
    Path dir;

    @Test
    void readsPkcs8V1Der() throws Exception {
        assertReads(write("v1.der", hex(V1)));
    }

    @Test
    void readsPkcs8V1Pem() throws Exception {
        assertReads(write("v1.pem", V1_PEM.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void readsPkcs8V2WithItsPublicKey() throws Exception {
        assertReads(write("v2.der", hex(V2)));
    }

    @Test
    void readsPkcs8V2InRingsLegacyExplicitForm() throws Exception {
        assertReads(write("v2-ring.der", hex(V2_EXPLICIT)));
    }

    @Test
    void refusesAV2KeyWhosePublicKeyIsAnotherKeys() throws Exception {
        String other = PUBLIC.substring(0, 62) + "00";
        assertRefused(
                write("mismatch.der", hex(V2.replace(PUBLIC, other))),
                "holds a public key that is not its private key's");
        assertRefused(
                write("mismatch-ring.der", hex(V2_EXPLICIT.replace(PUBLIC, other))),
                "holds a public key that is not its private key's");
    }

    @Test
    void refusesAnotherAlgorithm() throws Exception {
        // X25519 (1.3.101.110) has the same shape as an Ed25519 key.
        Path file = write("x25519.der", hex(V1.replace("06032b6570", "06032b656e")));
        assertRefused(file, "holds a key of algorithm 1.3.101.110, not Ed25519 (1.3.101.112)");
    }

    @Test
    void refusesAlgorithmParameters() throws Exception {
        Path file = write("params.der", hex("3030020100300706032b65700500042204" + "20" + SEED));
        assertRefused(file, "with algorithm parameters");
    }

    @Test
    void refusesWhatIsNotPkcs8() throws Exception {
        assertRefused(write("raw", hex(SEED)), "is not a PKCS#8 private key");
        assertRefused(write("trailing.der", hex(V1 + "00")), "is not a PKCS#8 private key");
        assertRefused(
                write(
                        "public.pem",
                        ("-----BEGIN PUBLIC KEY-----\n"
                                        + "MCowBQYDK2VwAyEAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=\n-----END PUBLIC KEY-----\n")
                                .getBytes(StandardCharsets.US_ASCII)),
                "holds a PEM \"PUBLIC KEY\" block, not \"PRIVATE KEY\"");
        assertRefused(
                write(
                        "encrypted.pem",
                        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n"
                                .getBytes(StandardCharsets.US_ASCII)),
                "(an encrypted key is not read)");
        assertRefused(
                write("two.pem", (V1_PEM + V1_PEM).getBytes(StandardCharsets.US_ASCII)),
                "holds more than one PEM block");
    }

    @Test
    void refusesAMissingFile() {
        assertRefused(dir.resolve("absent.der"), "cannot read the private key");
    }

    @Test
    void refusesABlankKeyId() throws Exception {
        Path file = write("v1.der", hex(V1));
        assertThrows(IllegalArgumentException.class, () -> SigningKey.readPkcs8(file, " "));
        assertThrows(IllegalArgumentException.class, () -> SigningKey.fromPrivateKey("", hex(SEED)));
    }

    @Test
    void neverPrintsThePrivateKey() {
        assertEquals(
                "SigningKey[k1]", SigningKey.fromPrivateKey("k1", hex(SEED)).toString());
    }

    private void assertReads(Path file) throws KeyFileException {
        SigningKey key = SigningKey.readPkcs8(file, "k1");
        assertEquals("k1", key.keyId());
        assertArrayEquals(hex(PUBLIC), key.publicKey());
        byte[] message = "m".getBytes(StandardCharsets.US_ASCII);
        assertTrue(key.verificationKey().verify(message, key.sign(message)));
    }

    private static void assertRefused(Path file, String reason) {
        KeyFileException e = assertThrows(KeyFileException.class, () -> SigningKey.readPkcs8(file, "k1"));
        assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertEquals(file, e.file());
    }

    private Path write(String name, byte[] contents) throws Exception {
        return Files.write(dir.resolve(name), contents);
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
