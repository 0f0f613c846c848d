package io.krabka.archive.manifest;

import io.krabka.archive.keys.SigningKey;
import io.krabka.spi.common.Uuid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One manifest body with every kind of field, and its encodings as an independent implementation (a Python
 * script over {@code struct}, {@code hashlib} and {@code cryptography}'s Ed25519) computed them.
 */
final class GoldenManifest {

    static final Uuid TOPIC_ID = Uuid.fromBytes(HexFormat.of().parseHex("0123456789abcdef0011223344556677"));
    static final Uuid SEGMENT_ID = Uuid.fromBytes(HexFormat.of().parseHex("fedcba98765432108899aabbccddeeff"));
    static final Uuid EPOCH_ID = Uuid.fromBytes(HexFormat.of().parseHex("a1a2a3a4b1b2c1c2d1d2e1e2e3e4e5e6"));
    static final String DIRECTORY = "tier/orders-3-ASNFZ4mrze8AESIzRFVmdw";
    static final String LOG_KEY = DIRECTORY + "/00000000000000000100-_ty6mHZUMhCImaq7zN3u_w.log";
    static final String INDEX_KEY = DIRECTORY + "/00000000000000000100-_ty6mHZUMhCImaq7zN3u_w.index";
    static final ChainHead PREV_HEAD = new ChainHead(filled(0x11));
    static final String KEY_ID = "worm-2026-q3";
    /** The RFC 8032 private key 00 01 02 .. 1f. */
    static final byte[] SEED = seed();

    static final String CANONICAL_HEX = "6b7261626b612d776f726d2d6d616e69666573742d626f64792d7631000000000100000000"
            + "000000066f72646572730123456789abcdef001122334455667700000003fedcba98765432108899aabbccddeeff0000000000"
            + "00006400000000000000c70000018bcfe5687b000000070000018bcfe569c8000000000000100000000000000000020000000000"
            + "0000000000006400000002000000000000009601000000000000000200000000000000036c6f670000000000000054746965722f"
            + "6f72646572732d332d41534e465a346d727a6538414553497a5246566d64772f303030303030303030303030303030303031303"
            + "02d5f7479366d485a554d6843496d6171377a4e33755f772e6c6f670000000000001000e297675584529988f60a954f09985840"
            + "ffbd88116d72844cbfa411324573d2ba0100000000000000052261626322000000000000000005696e646578000000000000005"
            + "6746965722f6f72646572732d332d41534e465a346d727a6538414553497a5246566d64772f3030303030303030303030303030"
            + "3030303130302d5f7479366d485a554d6843496d6171377a4e33755f772e696e6465780000000000000010bb4397cf9e25a305"
            + "021241ff265cb875413c4d2c71f19cba775cf835c719cac5000100000000000000027632a1a2a3a4b1b2c1c2d1d2e1e2e3e4e5"
            + "e600000000000000051111111111111111111111111111111111111111111111111111111111111111";
    static final String HEAD_HEX = "5aff4e515175bfcb5faf22fa760403ed6257af666bbb96517d52ff28b712d965";
    static final String SIGNING_INPUT_HEX = "6b7261626b612d776f726d2d6d616e69666573742d763100000000000000000c776f72"
            + "6d2d323032362d7133a1a2a3a4b1b2c1c2d1d2e1e2e3e4e5e600000000000000055aff4e515175bfcb5faf22fa760403ed6257af"
            + "666bbb96517d52ff28b712d965";
    static final String PUBLIC_KEY_HEX = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
    static final String SIGNATURE_HEX = "38aa56a65d1ed5d9e0836d4dfbe7a573763d0b08afe24d6e1d773b547bfc361c225414a807"
            + "6a09135a5200b71432c087d9200b2327441c9a1c514a33a6ecf202";

    private GoldenManifest() {}

    static SegmentIdentity segment() {
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(2, 150L);
        epochs.put(0, 100L);
        return new SegmentIdentity(
                "orders",
                TOPIC_ID,
                3,
                SEGMENT_ID,
                100,
                199,
                1_700_000_000_123L,
                7,
                1_700_000_000_456L,
                4096,
                epochs,
                true);
    }

    static List<ObjectEntry> objects() {
        return List.of(
                new ObjectEntry(
                        "log",
                        LOG_KEY,
                        4096,
                        Sha256Digest.of(bytes("log bytes")),
                        Optional.of("\"abc\""),
                        Optional.empty(),
                        true),
                new ObjectEntry(
                        "index",
                        INDEX_KEY,
                        16,
                        Sha256Digest.of(bytes("index bytes")),
                        Optional.empty(),
                        Optional.of("v2"),
                        false));
    }

    static ChainStamp chain() {
        return new ChainStamp(EPOCH_ID, 5, PREV_HEAD);
    }

    static ManifestBody body() {
        return new ManifestBody(segment(), objects(), chain());
    }

    static SigningKey signingKey() {
        return SigningKey.fromPrivateKey(KEY_ID, SEED);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] filled(int value) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    private static byte[] seed() {
        byte[] seed = new byte[32];
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) i;
        }
        return seed;
    }
}
