package io.krabka.archive.manifest;

import com.fasterxml.jackson.core.JsonGenerator;
import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.DocumentKind;
import io.krabka.archive.DocumentTooLargeException;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.internal.CompactJson;
import io.krabka.archive.internal.SignatureJson;
import io.krabka.archive.internal.StrictJsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A manifest's JSON, as the original's serde structs read and write it: snake_case fields, every struct with
 * {@code deny_unknown_fields}, UUIDs in lowercase hyphenated form, heads and digests as 64 hex digits, leader
 * epochs as an object with decimal keys, absent optionals as null; compact on output. The JSON layout is free
 * (the chain covers the canonical bytes), but every field is read strictly so that nothing unattested can hide in
 * it.
 */
public final class ManifestJson {

    /** The largest manifest read: {@code MAX_MANIFEST_BYTES}, 1 MiB. */
    public static final long MAX_MANIFEST_BYTES = 1024 * 1024;

    private static final DocumentKind MANIFEST = DocumentKind.MANIFEST;
    private static final Set<String> MANIFEST_FIELDS = Set.of("body", "signature");
    private static final Set<String> BODY_FIELDS = Set.of("format_version", "segment", "objects", "chain");
    private static final Set<String> SEGMENT_FIELDS = Set.of(
            "topic",
            "topic_id",
            "partition",
            "segment_id",
            "start_offset",
            "end_offset",
            "max_timestamp_ms",
            "broker_id",
            "event_timestamp_ms",
            "segment_size_bytes",
            "leader_epochs",
            "txn_index_empty");
    private static final Set<String> OBJECT_FIELDS =
            Set.of("suffix", "key", "size_bytes", "sha256", "e_tag", "version_id", "create_precondition");
    private static final Set<String> CHAIN_FIELDS = Set.of("epoch_id", "seq", "prev_head");

    /** A map key as serde writes an i32: decimal, no sign but a minus, no leading zero. */
    private static final Pattern DECIMAL_I32 = Pattern.compile("0|-?[1-9][0-9]{0,9}");

    private ManifestJson() {}

    /** The compact JSON of a manifest. */
    public static byte[] write(SegmentManifest manifest) {
        return CompactJson.write(json -> {
            json.writeStartObject();
            json.writeFieldName("body");
            writeBody(json, manifest.body());
            json.writeFieldName("signature");
            SignatureJson.write(json, manifest.signature());
            json.writeEndObject();
        });
    }

    /**
     * Reads a manifest.
     *
     * @throws DocumentTooLargeException         if it is above {@link #MAX_MANIFEST_BYTES}
     * @throws UnsupportedFormatVersionException if its {@code format_version} is not one this reads
     * @throws MalformedDocumentException        if it is not a manifest as the format defines it
     */
    public static SegmentManifest read(byte[] json) throws ArchiveFormatException {
        if (json.length > MAX_MANIFEST_BYTES) {
            throw new DocumentTooLargeException(MANIFEST, json.length, MAX_MANIFEST_BYTES);
        }
        StrictJsonObject root = StrictJsonObject.parse(MANIFEST, json);
        StrictJsonObject body = root.object("body");
        // The version first: a later format's new fields are an unsupported version, not unknown fields.
        long version = body.uint32("format_version");
        if (version < ManifestBody.MIN_FORMAT_VERSION || version > ManifestBody.FORMAT_VERSION) {
            throw new UnsupportedFormatVersionException(
                    MANIFEST,
                    Optional.of(version),
                    ManifestBody.MIN_FORMAT_VERSION + "..=" + ManifestBody.FORMAT_VERSION);
        }
        root.allowOnly(MANIFEST_FIELDS);
        body.allowOnly(BODY_FIELDS);
        try {
            return new SegmentManifest(
                    new ManifestBody(
                            version,
                            readSegment(body.object("segment")),
                            readObjects(body),
                            readChain(body.object("chain"))),
                    SignatureJson.read(root.optionalObject("signature")));
        } catch (IllegalArgumentException e) {
            throw new MalformedDocumentException(MANIFEST, e.getMessage(), e);
        }
    }

    private static void writeBody(JsonGenerator json, ManifestBody body) throws IOException {
        json.writeStartObject();
        json.writeNumberField("format_version", body.formatVersion());
        SegmentIdentity segment = body.segment();
        json.writeObjectFieldStart("segment");
        json.writeStringField("topic", segment.topic());
        CompactJson.uuid(json, "topic_id", segment.topicId());
        json.writeNumberField("partition", segment.partition());
        CompactJson.uuid(json, "segment_id", segment.segmentId());
        json.writeNumberField("start_offset", segment.startOffset());
        json.writeNumberField("end_offset", segment.endOffset());
        json.writeNumberField("max_timestamp_ms", segment.maxTimestampMs());
        json.writeNumberField("broker_id", segment.brokerId());
        json.writeNumberField("event_timestamp_ms", segment.eventTimestampMs());
        json.writeNumberField("segment_size_bytes", segment.segmentSizeBytes());
        json.writeObjectFieldStart("leader_epochs");
        for (Map.Entry<Integer, Long> epoch : segment.leaderEpochs().entrySet()) {
            json.writeNumberField(Integer.toString(epoch.getKey()), epoch.getValue());
        }
        json.writeEndObject();
        json.writeBooleanField("txn_index_empty", segment.txnIndexEmpty());
        json.writeEndObject();
        json.writeArrayFieldStart("objects");
        for (ObjectEntry object : body.objects()) {
            json.writeStartObject();
            json.writeStringField("suffix", object.suffix());
            json.writeStringField("key", object.key());
            json.writeNumberField("size_bytes", object.sizeBytes());
            json.writeStringField("sha256", object.sha256().hex());
            CompactJson.optionalString(json, "e_tag", object.eTag());
            CompactJson.optionalString(json, "version_id", object.versionId());
            json.writeBooleanField("create_precondition", object.createPrecondition());
            json.writeEndObject();
        }
        json.writeEndArray();
        ChainStamp chain = body.chain();
        json.writeObjectFieldStart("chain");
        CompactJson.uuid(json, "epoch_id", chain.epochId());
        CompactJson.unsignedLong(json, "seq", chain.seq());
        json.writeStringField("prev_head", chain.prevHead().hex());
        json.writeEndObject();
        json.writeEndObject();
    }

    private static SegmentIdentity readSegment(StrictJsonObject segment) throws MalformedDocumentException {
        segment.allowOnly(SEGMENT_FIELDS);
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        for (Map.Entry<String, Long> epoch : segment.int64Map("leader_epochs").entrySet()) {
            if (!DECIMAL_I32.matcher(epoch.getKey()).matches()) {
                throw segment.malformed("leader_epochs", "key \"" + epoch.getKey() + "\" is not a decimal i32");
            }
            long number = Long.parseLong(epoch.getKey());
            if (number != (int) number) {
                throw segment.malformed("leader_epochs", "key \"" + epoch.getKey() + "\" is not a decimal i32");
            }
            epochs.put((int) number, epoch.getValue());
        }
        return new SegmentIdentity(
                segment.string("topic"),
                segment.uuid("topic_id"),
                segment.int32("partition"),
                segment.uuid("segment_id"),
                segment.int64("start_offset"),
                segment.int64("end_offset"),
                segment.int64("max_timestamp_ms"),
                segment.int32("broker_id"),
                segment.int64("event_timestamp_ms"),
                segment.int64("segment_size_bytes"),
                epochs,
                segment.bool("txn_index_empty"));
    }

    private static List<ObjectEntry> readObjects(StrictJsonObject body) throws MalformedDocumentException {
        List<ObjectEntry> objects = new ArrayList<>();
        for (StrictJsonObject object : body.objects("objects")) {
            object.allowOnly(OBJECT_FIELDS);
            long size = object.uint64("size_bytes");
            if (size < 0) {
                // An unsigned size above 2^63 - 1: no store holds such an object, and a long cannot.
                throw object.malformed("size_bytes", "larger than any object: " + Long.toUnsignedString(size));
            }
            objects.add(new ObjectEntry(
                    object.string("suffix"),
                    object.string("key"),
                    size,
                    new Sha256Digest(object.hex32("sha256")),
                    object.optionalString("e_tag"),
                    object.optionalString("version_id"),
                    object.boolOrDefault("create_precondition", false)));
        }
        return objects;
    }

    private static ChainStamp readChain(StrictJsonObject chain) throws MalformedDocumentException {
        chain.allowOnly(CHAIN_FIELDS);
        return new ChainStamp(chain.uuid("epoch_id"), chain.uint64("seq"), new ChainHead(chain.hex32("prev_head")));
    }
}
