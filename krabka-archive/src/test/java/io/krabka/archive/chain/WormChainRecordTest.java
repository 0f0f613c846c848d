package io.krabka.archive.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.DocumentKind;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.Uuid;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WormChainRecordTest {

    private static final Uuid EPOCH = Uuid.fromBytes(HexFormat.of().parseHex("a1a2a3a4b1b2c1c2d1d2e1e2e3e4e5e6"));
    private static final ChainHead PREV = ChainHead.fromHex("11".repeat(32));
    private static final ChainHead HEAD = ChainHead.fromHex("22".repeat(32));
    private static final ChainStamp STAMP = new ChainStamp(EPOCH, 5, PREV);
    private static final String RECEIPT = "{\"version\":0,\"epoch_id\":\"a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6\","
            + "\"seq\":5,\"prev_head\":\"" + "11".repeat(32) + "\",\"head\":\"" + "22".repeat(32) + "\","
            + "\"manifest_version_id\":\"v7\"}";

    @Test
    void aReceiptIsCompactJson() {
        WormChainRecord receipt = WormChainRecord.receipt(STAMP, HEAD, Optional.of("v7"));
        assertEquals(RECEIPT, new String(receipt.encode(), StandardCharsets.UTF_8));
        assertTrue(receipt.isReceipt());
        assertEquals(STAMP, receipt.stamp());
    }

    @Test
    void aRequestHasNoHead() throws Exception {
        WormChainRecord request = WormChainRecord.request(STAMP);
        String json = new String(request.encode(), StandardCharsets.UTF_8);
        assertTrue(json.endsWith(",\"head\":null,\"manifest_version_id\":null}"), json);
        assertFalse(request.isReceipt());
        assertEquals(request, WormChainRecord.decode(request.encode()));
    }

    @Test
    void decodesWhatItEncodes() throws Exception {
        WormChainRecord receipt = WormChainRecord.receipt(new ChainStamp(EPOCH, -1L, PREV), HEAD, Optional.empty());
        assertEquals(receipt, WormChainRecord.decode(receipt.encode()));
        assertEquals(receipt, WormChainRecord.decode(receipt.toCustomMetadata().value()));
    }

    @Test
    void absentOptionalsReadAsNull() throws Exception {
        String json = RECEIPT.replace(",\"manifest_version_id\":\"v7\"", "");
        assertEquals(Optional.empty(), WormChainRecord.decode(utf8(json)).manifestVersionId());
    }

    @Test
    void aMissingOrOtherVersionIsUnsupported() {
        UnsupportedFormatVersionException missing = assertThrows(
                UnsupportedFormatVersionException.class,
                () -> WormChainRecord.decode(utf8(RECEIPT.replace("\"version\":0,", ""))));
        assertEquals(Optional.empty(), missing.found());
        assertEquals(DocumentKind.CHAIN_RECORD, missing.document());
        UnsupportedFormatVersionException other = assertThrows(
                UnsupportedFormatVersionException.class,
                () -> WormChainRecord.decode(utf8(RECEIPT.replace("\"version\":0", "\"version\":1"))));
        assertEquals(Optional.of(1L), other.found());
    }

    @Test
    void otherBadJsonIsMalformed() {
        assertMalformed(RECEIPT.replace("\"seq\":5", "\"seq\":5,\"extra\":1"), "extra: unknown field");
        assertMalformed(RECEIPT.replace("22".repeat(32), "22".repeat(31)), "head: a 32-byte value is 64 hex");
        assertMalformed(RECEIPT.replace("\"version\":0", "\"version\":\"0\""), "version: not a 16-bit integer");
        assertMalformed(RECEIPT.replace("\"version\":0", "\"version\":65536"), "version: not a 16-bit integer");
        assertMalformed(RECEIPT.replace(",\"seq\":5", ""), "seq: missing field");
        assertMalformed("not json", "not JSON");
    }

    @Test
    void onlyAJsonObjectWithAVersionClaimsToBeARecord() {
        assertTrue(WormChainRecord.declaresVersion(utf8(RECEIPT)));
        assertTrue(WormChainRecord.declaresVersion(utf8("{\"version\":9}")));
        assertFalse(WormChainRecord.declaresVersion(utf8("{\"key\":\"a/b\"}")));
        assertFalse(WormChainRecord.declaresVersion(new byte[] {0, 1, 2}));
    }

    private static void assertMalformed(String json, String detail) {
        MalformedDocumentException e =
                assertThrows(MalformedDocumentException.class, () -> WormChainRecord.decode(utf8(json)));
        assertTrue(e.getMessage().contains(detail), e.getMessage());
        assertTrue(e.getMessage().startsWith("malformed chain record: "), e.getMessage());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
