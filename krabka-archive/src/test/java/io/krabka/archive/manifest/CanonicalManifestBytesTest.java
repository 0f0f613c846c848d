package io.krabka.archive.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CanonicalManifestBytesTest {

    @Test
    void goldenBytesMatchAnIndependentEncoder() {
        assertEquals(
                GoldenManifest.CANONICAL_HEX,
                HexFormat.of().formatHex(CanonicalManifestBytes.of(GoldenManifest.body())));
    }

    @Test
    void everyFieldSitsWhereTheLayoutPutsIt() {
        ByteBuffer bytes = ByteBuffer.wrap(CanonicalManifestBytes.of(GoldenManifest.body()));
        assertArrayEquals("krabka-worm-manifest-body-v1\0".getBytes(StandardCharsets.US_ASCII), take(bytes, 29));
        assertEquals(1, bytes.getInt(), "format_version:u32");
        assertEquals(6, bytes.getLong(), "topic length:u64");
        assertEquals("orders", new String(take(bytes, 6), StandardCharsets.UTF_8));
        assertArrayEquals(GoldenManifest.TOPIC_ID.toBytes(), take(bytes, 16), "topic_id: 16 raw bytes");
        assertEquals(3, bytes.getInt(), "partition:i32");
        assertArrayEquals(GoldenManifest.SEGMENT_ID.toBytes(), take(bytes, 16), "segment_id");
        assertEquals(100, bytes.getLong(), "start_offset");
        assertEquals(199, bytes.getLong(), "end_offset");
        assertEquals(1_700_000_000_123L, bytes.getLong(), "max_timestamp_ms");
        assertEquals(7, bytes.getInt(), "broker_id:i32");
        assertEquals(1_700_000_000_456L, bytes.getLong(), "event_timestamp_ms");
        assertEquals(4096, bytes.getLong(), "segment_size_bytes");
        assertEquals(2, bytes.getLong(), "leader_epochs.len():u64");
        assertEquals(0, bytes.getInt(), "the lowest epoch first, whatever order the map was built in");
        assertEquals(100, bytes.getLong());
        assertEquals(2, bytes.getInt());
        assertEquals(150, bytes.getLong());
        assertEquals(1, bytes.get(), "txn_index_empty:u8");
        assertEquals(2, bytes.getLong(), "objects.len():u64");

        assertEquals("log", string(bytes));
        assertEquals(GoldenManifest.LOG_KEY, string(bytes));
        assertEquals(4096, bytes.getLong(), "size_bytes:u64");
        assertArrayEquals(Sha256Digest.of(GoldenManifest.bytes("log bytes")).bytes(), take(bytes, 32));
        assertEquals(1, bytes.get(), "e_tag present");
        assertEquals("\"abc\"", string(bytes));
        assertEquals(0, bytes.get(), "version_id absent");

        assertEquals("index", string(bytes));
        assertEquals(GoldenManifest.INDEX_KEY, string(bytes));
        assertEquals(16, bytes.getLong());
        assertArrayEquals(Sha256Digest.of(GoldenManifest.bytes("index bytes")).bytes(), take(bytes, 32));
        assertEquals(0, bytes.get(), "e_tag absent");
        assertEquals(1, bytes.get(), "version_id present");
        assertEquals("v2", string(bytes));

        assertArrayEquals(GoldenManifest.EPOCH_ID.toBytes(), take(bytes, 16), "epoch_id");
        assertEquals(5, bytes.getLong(), "seq:u64");
        assertArrayEquals(GoldenManifest.PREV_HEAD.bytes(), take(bytes, 32), "prev_head");
        assertEquals(0, bytes.remaining(), "nothing after prev_head");
    }

    @Test
    void createPreconditionIsNotEncoded() {
        List<ObjectEntry> flipped = GoldenManifest.objects().stream()
                .map(o -> new ObjectEntry(
                        o.suffix(),
                        o.key(),
                        o.sizeBytes(),
                        o.sha256(),
                        o.eTag(),
                        o.versionId(),
                        !o.createPrecondition()))
                .toList();
        ManifestBody body = new ManifestBody(GoldenManifest.segment(), flipped, GoldenManifest.chain());
        assertEquals(GoldenManifest.CANONICAL_HEX, HexFormat.of().formatHex(CanonicalManifestBytes.of(body)));
    }

    @Test
    void anAbsentAndAnEmptyETagDiffer() {
        ObjectEntry absent =
                new ObjectEntry("log", "k", 1, Sha256Digest.of(new byte[0]), Optional.empty(), Optional.empty(), false);
        ObjectEntry empty =
                new ObjectEntry("log", "k", 1, Sha256Digest.of(new byte[0]), Optional.of(""), Optional.empty(), false);
        assertNotEquals(
                HexFormat.of().formatHex(encodeWith(absent)), HexFormat.of().formatHex(encodeWith(empty)));
    }

    @Test
    void theLargestSeqIsEncodedUnsigned() {
        ManifestBody body = new ManifestBody(
                GoldenManifest.segment(), List.of(), new ChainStamp(Uuid.ZERO_UUID, -1L, ChainHead.GENESIS));
        byte[] bytes = CanonicalManifestBytes.of(body);
        ByteBuffer tail = ByteBuffer.wrap(bytes, bytes.length - 40, 8);
        assertEquals("18446744073709551615", Long.toUnsignedString(tail.getLong()));
    }

    private static byte[] encodeWith(ObjectEntry entry) {
        return CanonicalManifestBytes.of(
                new ManifestBody(GoldenManifest.segment(), List.of(entry), GoldenManifest.chain()));
    }

    private static String string(ByteBuffer bytes) {
        int length = Math.toIntExact(bytes.getLong());
        return new String(take(bytes, length), StandardCharsets.UTF_8);
    }

    private static byte[] take(ByteBuffer bytes, int length) {
        byte[] out = new byte[length];
        bytes.get(out);
        return out;
    }
}
