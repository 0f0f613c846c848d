package io.krabka.archive.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrustedKeysTest {

    private static final byte[] MESSAGE = "m".getBytes(StandardCharsets.US_ASCII);
    private final SigningKey trusted = SigningKey.fromPrivateKey("worm", new byte[32]);
    private final SigningKey other = SigningKey.fromPrivateKey("worm", filled(7));
    private final TrustedKeys keys = TrustedKeys.of(Map.of("worm", trusted.verificationKey()));

    @Test
    void aSignatureByTheTrustedKeyIsValid() {
        assertEquals(SignatureStatus.VALID, keys.check("worm", trusted.publicKey(), trusted.sign(MESSAGE), MESSAGE));
    }

    @Test
    void anUnknownKeyIdAttestsNothing() {
        assertEquals(
                SignatureStatus.UNKNOWN_KEY_ID,
                keys.check("rotated", trusted.publicKey(), trusted.sign(MESSAGE), MESSAGE));
        assertEquals(
                SignatureStatus.UNKNOWN_KEY_ID,
                TrustedKeys.none().check("worm", trusted.publicKey(), trusted.sign(MESSAGE), MESSAGE));
    }

    @Test
    void aSignatureThatVerifiesUnderTheKeyItCarriesIsStillUntrusted() {
        assertEquals(
                SignatureStatus.FOREIGN_PUBLIC_KEY,
                keys.check("worm", other.publicKey(), other.sign(MESSAGE), MESSAGE));
    }

    @Test
    void aSignatureThatFailsUnderTheTrustedKeyIsForged() {
        SignatureStatus status = keys.check("worm", trusted.publicKey(), other.sign(MESSAGE), MESSAGE);
        assertEquals(SignatureStatus.INVALID, status);
        assertTrue(status.forged());
    }

    @Test
    void refusesAKeyIdTwiceOrBlank() {
        assertThrows(IllegalArgumentException.class, () -> keys.with("worm", other.verificationKey()));
        assertThrows(IllegalArgumentException.class, () -> keys.with(" ", other.verificationKey()));
        assertEquals(2, keys.with("next", other.verificationKey()).keyIds().size());
    }

    private static byte[] filled(int value) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
