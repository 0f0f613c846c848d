package io.krabka.archive.manifest;

import io.krabka.archive.internal.CanonicalOutput;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The canonical bytes of a manifest body, which the chain hashes (the original's
 * {@code canonical_manifest_bytes}): integers big-endian, length prefixes {@code u64}, strings UTF-8, UUIDs their
 * 16 raw bytes, in this order:
 *
 * <pre>
 * "krabka-worm-manifest-body-v1\0"  format_version:u32
 * len+topic  topic_id:16  partition:i32  segment_id:16
 * start_offset:i64  end_offset:i64  max_timestamp_ms:i64  broker_id:i32  event_timestamp_ms:i64
 * segment_size_bytes:i64
 * leader_epochs.len():u64  (epoch:i32 offset:i64)*  ascending by epoch
 * txn_index_empty:u8
 * objects.len():u64  (len+suffix len+key size_bytes:u64 sha256:32 e_tag:(0u8 | 1u8 len+value)
 *                     version_id:(0u8 | 1u8 len+value))*  in list order
 * epoch_id:16  seq:u64  prev_head:32
 * </pre>
 *
 * An object's {@code create_precondition} has no place in this (v1) encoding: nothing authenticates it.
 */
public final class CanonicalManifestBytes {

    /** The domain that starts the encoding, with its trailing NUL: {@code MANIFEST_BODY_DOMAIN}. */
    public static final byte[] DOMAIN = "krabka-worm-manifest-body-v1\0".getBytes(StandardCharsets.US_ASCII);

    private CanonicalManifestBytes() {}

    /** The canonical bytes of a body. */
    public static byte[] of(ManifestBody body) {
        SegmentIdentity segment = body.segment();
        CanonicalOutput out = new CanonicalOutput(256 + body.objects().size() * 256);
        out.raw(DOMAIN)
                .int32(body.formatVersion())
                .string(segment.topic())
                .uuid(segment.topicId())
                .int32(segment.partition())
                .uuid(segment.segmentId())
                .int64(segment.startOffset())
                .int64(segment.endOffset())
                .int64(segment.maxTimestampMs())
                .int32(segment.brokerId())
                .int64(segment.eventTimestampMs())
                .int64(segment.segmentSizeBytes());
        out.int64(segment.leaderEpochs().size());
        for (Map.Entry<Integer, Long> epoch : segment.leaderEpochs().entrySet()) {
            out.int32(epoch.getKey()).int64(epoch.getValue());
        }
        out.bool(segment.txnIndexEmpty());
        out.int64(body.objects().size());
        for (ObjectEntry object : body.objects()) {
            out.string(object.suffix())
                    .string(object.key())
                    .int64(object.sizeBytes())
                    .raw(object.sha256().bytes())
                    .optionalString(object.eTag())
                    .optionalString(object.versionId());
        }
        ChainStamp chain = body.chain();
        out.uuid(chain.epochId()).int64(chain.seq()).raw(chain.prevHead().bytes());
        return out.toByteArray();
    }
}
