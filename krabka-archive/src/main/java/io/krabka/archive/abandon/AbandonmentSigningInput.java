package io.krabka.archive.abandon;

import io.krabka.archive.internal.CanonicalOutput;
import java.nio.charset.StandardCharsets;

/**
 * The bytes an abandonment record's Ed25519 signature signs, in the style of the manifest's canonical bytes
 * (integers big-endian, length prefixes {@code u64}, strings UTF-8, UUIDs their 16 raw bytes):
 *
 * <pre>
 * "krabka-worm-abandoned-v1\0"  kid_len:u64 kid  format_version:u32
 * len+topic  topic_id:16  partition:i32  segment_id:16  start_offset:i64  end_offset:i64  abandoned_at_ms:i64
 * </pre>
 *
 * Its own domain keeps a record's signature from ever passing as a manifest's, and the other way round.
 */
public final class AbandonmentSigningInput {

    /** The domain that starts the input, with its trailing NUL. */
    public static final byte[] DOMAIN = "krabka-worm-abandoned-v1\0".getBytes(StandardCharsets.US_ASCII);

    private AbandonmentSigningInput() {}

    /** The signing input of a record's fields, signed under {@code keyId}. */
    public static byte[] of(String keyId, long formatVersion, AbandonedSegment segment, long abandonedAtMs) {
        return new CanonicalOutput(160 + keyId.length() * 3 + segment.topic().length())
                .raw(DOMAIN)
                .string(keyId)
                .int32(formatVersion)
                .string(segment.topic())
                .uuid(segment.topicId())
                .int32(segment.partition())
                .uuid(segment.segmentId())
                .int64(segment.startOffset())
                .int64(segment.endOffset())
                .int64(abandonedAtMs)
                .toByteArray();
    }
}
