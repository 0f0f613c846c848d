package io.krabka.archive.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.DocumentKind;
import io.krabka.archive.DocumentTooLargeException;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestJsonTest {

    private static final String SHA_LOG = "e297675584529988f60a954f09985840ffbd88116d72844cbfa411324573d2ba";
    private static final String SHA_INDEX = "bb4397cf9e25a305021241ff265cb875413c4d2c71f19cba775cf835c719cac5";
    private static final String PREV = "11".repeat(32);

    /** The golden manifest's JSON, as serde_json would write the original's structs. */
    private static final String GOLDEN_JSON = "{\"body\":{\"format_version\":1,\"segment\":{\"topic\":\"orders\","
            + "\"topic_id\":\"01234567-89ab-cdef-0011-223344556677\",\"partition\":3,"
            + "\"segment_id\":\"fedcba98-7654-3210-8899-aabbccddeeff\",\"start_offset\":100,\"end_offset\":199,"
            + "\"max_timestamp_ms\":1700000000123,\"broker_id\":7,\"event_timestamp_ms\":1700000000456,"
            + "\"segment_size_bytes\":4096,\"leader_epochs\":{\"0\":100,\"2\":150},\"txn_index_empty\":true},"
            + "\"objects\":[{\"suffix\":\"log\",\"key\":\"" + GoldenManifest.LOG_KEY + "\",\"size_bytes\":4096,"
            + "\"sha256\":\"" + SHA_LOG + "\",\"e_tag\":\"\\\"abc\\\"\",\"version_id\":null,"
            + "\"create_precondition\":true},{\"suffix\":\"index\",\"key\":\"" + GoldenManifest.INDEX_KEY + "\","
            + "\"size_bytes\":16,\"sha256\":\"" + SHA_INDEX + "\",\"e_tag\":null,\"version_id\":\"v2\","
            + "\"create_precondition\":false}],\"chain\":{\"epoch_id\":\"a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6\","
            + "\"seq\":5,\"prev_head\":\"" + PREV + "\"}},\"signature\":{\"key_id\":\"worm-2026-q3\","
            + "\"public_key\":\"" + GoldenManifest.PUBLIC_KEY_HEX + "\",\"signature\":\""
            + GoldenManifest.SIGNATURE_HEX + "\"}}";

    @Test
    void writesCompactSnakeCaseJson() {
        assertEquals(GOLDEN_JSON, new String(ManifestJson.write(signedGolden()), StandardCharsets.UTF_8));
    }

    @Test
    void readsWhatItWrites() throws Exception {
        SegmentManifest manifest = signedGolden();
        assertEquals(manifest, ManifestJson.read(ManifestJson.write(manifest)));
    }

    @Test
    void readsUppercaseHex() throws Exception {
        SegmentManifest read = ManifestJson.read(utf8(GOLDEN_JSON
                .replace(SHA_LOG, SHA_LOG.toUpperCase(Locale.ROOT))
                .replace(GoldenManifest.SIGNATURE_HEX, GoldenManifest.SIGNATURE_HEX.toUpperCase(Locale.ROOT))));
        assertEquals(signedGolden(), read);
    }

    @Test
    void anAbsentCreatePreconditionIsFalse() throws Exception {
        String older = GOLDEN_JSON.replace(",\"create_precondition\":true", "");
        assertFalse(ManifestJson.read(utf8(older)).body().objects().get(0).createPrecondition());
    }

    @Test
    void absentOptionalsAreEmpty() throws Exception {
        String json = GOLDEN_JSON.replace("\"e_tag\":null,", "").replace(",\"signature\":{\"key_id\"", ",\"x\":{\"k\"");
        String unsigned = json.substring(0, json.indexOf(",\"x\":")) + "}";
        SegmentManifest read = ManifestJson.read(utf8(unsigned));
        assertEquals(Optional.empty(), read.body().objects().get(1).eTag());
        assertEquals(Optional.empty(), read.signature());
    }

    @Test
    void theLargestSeqRoundTrips() throws Exception {
        SegmentManifest read =
                ManifestJson.read(utf8(GOLDEN_JSON.replace("\"seq\":5", "\"seq\":18446744073709551615")));
        assertEquals(-1L, read.body().chain().seq());
        assertTrue(
                new String(ManifestJson.write(read), StandardCharsets.UTF_8).contains("\"seq\":18446744073709551615"));
    }

    @Test
    void refusesAnUnknownFieldAnywhere() {
        assertMalformed("{\"extra\":1," + GOLDEN_JSON.substring(1), "extra: unknown field");
        assertMalformed(
                GOLDEN_JSON.replace("\"format_version\":1,", "\"format_version\":1,\"extra\":null,"),
                "body.extra: unknown field");
        assertMalformed(
                GOLDEN_JSON.replace("\"leader_epochs\":", "\"extra\":0,\"leader_epochs\":"),
                "body.segment.extra: unknown field");
        assertMalformed(
                GOLDEN_JSON.replace("\"suffix\":\"index\"", "\"extra\":0,\"suffix\":\"index\""),
                "body.objects[1].extra: unknown field");
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5", "\"extra\":0,\"seq\":5"), "body.chain.extra: unknown field");
        assertMalformed(
                GOLDEN_JSON.replace("\"key_id\":", "\"extra\":0,\"key_id\":"), "signature.extra: unknown field");
    }

    @Test
    void refusesHeadsAndDigestsOfTheWrongLength() {
        assertMalformed(GOLDEN_JSON.replace(PREV, PREV.substring(2)), "body.chain.prev_head: a 32-byte value is 64");
        assertMalformed(GOLDEN_JSON.replace(SHA_LOG, SHA_LOG + "00"), "body.objects[0].sha256: a 32-byte value");
        assertMalformed(GOLDEN_JSON.replace(PREV, "g" + PREV.substring(1)), "body.chain.prev_head: not a hex digit");
        assertMalformed(
                GOLDEN_JSON.replace(GoldenManifest.SIGNATURE_HEX, GoldenManifest.SIGNATURE_HEX + "0"),
                "signature.signature: hex has an odd number of digits");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "A1A2A3A4-B1B2-C1C2-D1D2-E1E2E3E4E5E6",
                "a1a2a3a4b1b2c1c2d1d2e1e2e3e4e5e6",
                "{a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6}",
                "urn:uuid:a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6",
                "oaKjpLGywcLR0uHi4-Tl5g"
            })
    void readsUuidsOnlyInLowercaseHyphenatedForm(String epochId) {
        assertMalformed(
                GOLDEN_JSON.replace("a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6", epochId),
                "body.chain.epoch_id: not a lowercase hyphenated UUID");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 7})
    void refusesAnotherFormatVersion(int version) {
        UnsupportedFormatVersionException e = assertThrows(
                UnsupportedFormatVersionException.class,
                () -> ManifestJson.read(
                        utf8(GOLDEN_JSON.replace("\"format_version\":1", "\"format_version\":" + version))));
        assertEquals(Optional.of((long) version), e.found());
        assertEquals("manifest version " + version + " is not supported (this reads 1..=1)", e.getMessage());
    }

    @Test
    void refusesAManifestAboveTheCap() {
        byte[] big = new byte[(int) ManifestJson.MAX_MANIFEST_BYTES + 1];
        DocumentTooLargeException e = assertThrows(DocumentTooLargeException.class, () -> ManifestJson.read(big));
        assertEquals("manifest is 1048577 bytes, above the 1048576 byte cap", e.getMessage());
    }

    @Test
    void readsAManifestAtTheCap() throws Exception {
        int pad = (int) ManifestJson.MAX_MANIFEST_BYTES - utf8(GOLDEN_JSON).length;
        byte[] json = utf8(GOLDEN_JSON + " ".repeat(pad));
        assertEquals(ManifestJson.MAX_MANIFEST_BYTES, json.length);
        assertEquals(signedGolden(), ManifestJson.read(json));
    }

    @Test
    void refusesValuesOfTheWrongType() {
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5", "\"seq\":\"5\""), "body.chain.seq: not an unsigned 64-bit");
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5", "\"seq\":5.0"), "body.chain.seq: not an unsigned 64-bit");
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5", "\"seq\":-1"), "body.chain.seq: not an unsigned 64-bit");
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5", "\"seq\":18446744073709551616"), "body.chain.seq");
        assertMalformed(
                GOLDEN_JSON.replace("\"partition\":3", "\"partition\":2147483648"),
                "body.segment.partition: not a 32-bit integer");
        assertMalformed(
                GOLDEN_JSON.replace("\"txn_index_empty\":true", "\"txn_index_empty\":1"),
                "body.segment.txn_index_empty: not a boolean");
        assertMalformed(
                GOLDEN_JSON.replace("\"create_precondition\":true", "\"create_precondition\":null"),
                "body.objects[0].create_precondition: null where a value is required");
        assertMalformed(
                GOLDEN_JSON.replace("\"format_version\":1", "\"format_version\":\"1\""),
                "body.format_version: not an unsigned 32-bit integer");
    }

    @Test
    void refusesAMissingField() {
        assertMalformed(GOLDEN_JSON.replace("\"broker_id\":7,", ""), "body.segment.broker_id: missing field");
        assertMalformed(
                GOLDEN_JSON.replace("\"topic\":\"orders\"", "\"topic\":null"),
                "body.segment.topic: null where a value is required");
    }

    @Test
    void refusesLeaderEpochKeysThatAreNotDecimalI32s() {
        assertMalformed(GOLDEN_JSON.replace("{\"0\":100,", "{\"00\":100,"), "key \"00\" is not a decimal i32");
        assertMalformed(GOLDEN_JSON.replace("{\"0\":100,", "{\"+1\":100,"), "key \"+1\" is not a decimal i32");
        assertMalformed(GOLDEN_JSON.replace("{\"0\":100,", "{\"2147483648\":100,"), "is not a decimal i32");
    }

    @Test
    void refusesDuplicateKeysAndTrailingBytes() {
        assertMalformed(GOLDEN_JSON.replace("\"seq\":5,", "\"seq\":5,\"seq\":6,"), "Duplicate field 'seq'");
        assertMalformed(GOLDEN_JSON + "{}", "trailing characters");
        assertMalformed("[]", "not a JSON object");
        assertMalformed("", "not a JSON object");
        assertMalformed("{\"body\":", "not JSON");
    }

    @Test
    void refusesAnIllegalTopicOrOffsets() {
        assertMalformed(
                GOLDEN_JSON.replace("\"topic\":\"orders\"", "\"topic\":\"or/ders\""), "not a legal Kafka topic");
        assertMalformed(GOLDEN_JSON.replace("\"end_offset\":199", "\"end_offset\":99"), "end offset 99 is below");
    }

    private static SegmentManifest signedGolden() {
        return new ManifestSealer(Optional.of(GoldenManifest.signingKey()))
                .seal(GoldenManifest.segment(), GoldenManifest.objects(), GoldenManifest.chain())
                .manifest();
    }

    private static void assertMalformed(String json, String detail) {
        MalformedDocumentException e =
                assertThrows(MalformedDocumentException.class, () -> ManifestJson.read(utf8(json)));
        assertTrue(e.getMessage().contains(detail), () -> "\"" + e.getMessage() + "\" lacks \"" + detail + "\"");
        assertEquals(DocumentKind.MANIFEST, e.document());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
