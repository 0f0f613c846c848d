package io.krabka.archive.abandon;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.DocumentKind;
import io.krabka.archive.DocumentTooLargeException;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.internal.CompactJson;
import io.krabka.archive.internal.SignatureJson;
import io.krabka.archive.internal.StrictJsonObject;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ManifestSignature;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The record a writer leaves when a copy fails or is cut short: in a write-once archive it cannot delete what it
 * wrote, so it says instead, beside the objects, that they belong to no segment. JSON
 * {@code {format_version, segment:{topic, topic_id, partition, segment_id, start_offset, end_offset},
 * abandoned_at_ms, signature}}, compact, no other field, stored as {@code <base>-<segment id>.abandoned}.
 *
 * <p>A verifier takes a record at its word only when it is signed by a trusted key: then the copy's objects, its
 * manifest included, are abandoned rather than orphans, and that manifest is left out of the chain. This is
 * Krabka's addition; the original has no such record.
 *
 * @param formatVersion the record format, {@value #FORMAT_VERSION}
 * @param segment       the abandoned copy
 * @param abandonedAtMs when the writer gave it up
 * @param signature     the signature of {@link AbandonmentSigningInput}; empty for an unsigned record
 */
public record AbandonmentRecord(
        long formatVersion, AbandonedSegment segment, long abandonedAtMs, Optional<ManifestSignature> signature) {

    /** The record format this writes and reads. */
    public static final long FORMAT_VERSION = 1;

    /** The largest record read: a record is a few hundred bytes, so this only bounds what a reader buffers. */
    public static final long MAX_RECORD_BYTES = 64 * 1024;

    private static final DocumentKind RECORD = DocumentKind.ABANDONMENT_RECORD;
    private static final Set<String> FIELDS = Set.of("format_version", "segment", "abandoned_at_ms", "signature");
    private static final Set<String> SEGMENT_FIELDS =
            Set.of("topic", "topic_id", "partition", "segment_id", "start_offset", "end_offset");

    /** Validates the parts. */
    public AbandonmentRecord {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(signature, "signature");
        if (formatVersion != FORMAT_VERSION) {
            throw new IllegalArgumentException(
                    "abandonment record format version " + formatVersion + " is not " + FORMAT_VERSION);
        }
    }

    /** The record of a copy given up at {@code abandonedAtMs}, signed with the key, or unsigned without one. */
    public static AbandonmentRecord seal(AbandonedSegment segment, long abandonedAtMs, Optional<SigningKey> key) {
        Optional<ManifestSignature> signature = key.map(k -> new ManifestSignature(
                k.keyId(),
                k.publicKey(),
                k.sign(AbandonmentSigningInput.of(k.keyId(), FORMAT_VERSION, segment, abandonedAtMs))));
        return new AbandonmentRecord(FORMAT_VERSION, segment, abandonedAtMs, signature);
    }

    /**
     * What the record's signature is worth to a verifier that trusts these keys; empty for an unsigned record.
     */
    public Optional<SignatureStatus> check(TrustedKeys keys) {
        return signature.map(s -> keys.check(
                s.keyId(),
                s.publicKey(),
                s.signature(),
                AbandonmentSigningInput.of(s.keyId(), formatVersion, segment, abandonedAtMs)));
    }

    /** The compact JSON. */
    public byte[] encode() {
        return CompactJson.write(json -> {
            json.writeStartObject();
            json.writeNumberField("format_version", formatVersion);
            json.writeObjectFieldStart("segment");
            json.writeStringField("topic", segment.topic());
            CompactJson.uuid(json, "topic_id", segment.topicId());
            json.writeNumberField("partition", segment.partition());
            CompactJson.uuid(json, "segment_id", segment.segmentId());
            json.writeNumberField("start_offset", segment.startOffset());
            json.writeNumberField("end_offset", segment.endOffset());
            json.writeEndObject();
            json.writeNumberField("abandoned_at_ms", abandonedAtMs);
            json.writeFieldName("signature");
            SignatureJson.write(json, signature);
            json.writeEndObject();
        });
    }

    /**
     * Reads a record.
     *
     * @throws DocumentTooLargeException         if it is above {@link #MAX_RECORD_BYTES}
     * @throws UnsupportedFormatVersionException if its {@code format_version} is not {@value #FORMAT_VERSION}
     * @throws MalformedDocumentException        if it is not a record as the format defines it
     */
    public static AbandonmentRecord decode(byte[] json) throws ArchiveFormatException {
        if (json.length > MAX_RECORD_BYTES) {
            throw new DocumentTooLargeException(RECORD, json.length, MAX_RECORD_BYTES);
        }
        StrictJsonObject fields = StrictJsonObject.parse(RECORD, json);
        long version = fields.uint32("format_version");
        if (version != FORMAT_VERSION) {
            throw new UnsupportedFormatVersionException(RECORD, Optional.of(version), Long.toString(FORMAT_VERSION));
        }
        fields.allowOnly(FIELDS);
        StrictJsonObject segment = fields.object("segment").allowOnly(SEGMENT_FIELDS);
        try {
            return new AbandonmentRecord(
                    version,
                    new AbandonedSegment(
                            segment.string("topic"),
                            segment.uuid("topic_id"),
                            segment.int32("partition"),
                            segment.uuid("segment_id"),
                            segment.int64("start_offset"),
                            segment.int64("end_offset")),
                    fields.int64("abandoned_at_ms"),
                    SignatureJson.read(fields.optionalObject("signature")));
        } catch (IllegalArgumentException e) {
            throw new MalformedDocumentException(RECORD, e.getMessage(), e);
        }
    }
}
