package io.krabka.archive.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.internal.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManifestChainTest {

    @Test
    void genesisIsThirtyTwoZeroBytes() {
        assertArrayEquals(new byte[32], ChainHead.GENESIS.bytes());
    }

    @Test
    void headHashesPrevHeadSeqAndCanonicalBytes() {
        ManifestBody body = GoldenManifest.body();
        MessageDigest sha256 = Sha256.newDigest();
        sha256.update(GoldenManifest.PREV_HEAD.bytes());
        sha256.update(ByteBuffer.allocate(8).putLong(5).array());
        sha256.update(CanonicalManifestBytes.of(body));
        assertArrayEquals(sha256.digest(), body.head().bytes());
        assertEquals(GoldenManifest.HEAD_HEX, body.head().hex());
    }

    @Test
    void signingInputBindsKeyIdEpochSeqAndHead() {
        byte[] input = ManifestSigningInput.of(
                GoldenManifest.KEY_ID, GoldenManifest.chain(), ChainHead.fromHex(GoldenManifest.HEAD_HEX));
        assertEquals(GoldenManifest.SIGNING_INPUT_HEX, HexFormat.of().formatHex(input));
        ByteBuffer bytes = ByteBuffer.wrap(input);
        byte[] domain = new byte[24];
        bytes.get(domain);
        assertEquals("krabka-worm-manifest-v1\0", new String(domain, StandardCharsets.US_ASCII));
        assertEquals(GoldenManifest.KEY_ID.length(), bytes.getLong(), "kid length is a u64, not a u32");
        assertEquals(24 + 8 + GoldenManifest.KEY_ID.length() + 16 + 8 + 32, input.length);
    }

    @Test
    void sealingSignsTheHeadAsAnIndependentEd25519Does() {
        SealedManifest sealed = new ManifestSealer(Optional.of(GoldenManifest.signingKey()))
                .seal(GoldenManifest.segment(), GoldenManifest.objects(), GoldenManifest.chain());
        assertEquals(GoldenManifest.HEAD_HEX, sealed.head().hex());
        ManifestSignature signature = sealed.manifest().signature().orElseThrow();
        assertEquals(GoldenManifest.KEY_ID, signature.keyId());
        assertEquals(GoldenManifest.PUBLIC_KEY_HEX, HexFormat.of().formatHex(signature.publicKey()));
        assertEquals(GoldenManifest.SIGNATURE_HEX, HexFormat.of().formatHex(signature.signature()));
        assertTrue(GoldenManifest.signingKey()
                .verificationKey()
                .verify(HexFormat.of().parseHex(GoldenManifest.SIGNING_INPUT_HEX), signature.signature()));
    }

    @Test
    void sealingWithoutAKeyLeavesTheManifestUnsigned() throws Exception {
        SealedManifest sealed = new ManifestSealer(Optional.empty())
                .seal(GoldenManifest.segment(), GoldenManifest.objects(), GoldenManifest.chain());
        assertFalse(sealed.manifest().signature().isPresent());
        assertEquals(sealed.manifest(), ManifestJson.read(sealed.json()));
        assertTrue(new String(sealed.json(), StandardCharsets.UTF_8).endsWith(",\"signature\":null}"));
    }

    @Test
    void successorContinuesTheEpochAndStopsAtTheLargestSeq() {
        ChainStamp stamp = GoldenManifest.chain();
        ChainHead head = ChainHead.fromHex(GoldenManifest.HEAD_HEX);
        assertEquals(Optional.of(new ChainStamp(GoldenManifest.EPOCH_ID, 6, head)), stamp.successor(head));
        assertEquals(Optional.empty(), new ChainStamp(GoldenManifest.EPOCH_ID, -1L, head).successor(head));
    }
}
