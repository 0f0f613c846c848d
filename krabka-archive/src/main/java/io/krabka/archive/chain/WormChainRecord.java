package io.krabka.archive.chain;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.DocumentKind;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.internal.CompactJson;
import io.krabka.archive.internal.StrictJsonObject;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The chain position a segment's KIP-405 custom metadata records, so that the writer finds where its partition's
 * chain left off: JSON {@code {version, epoch_id, seq, prev_head, head, manifest_version_id}}, no other field;
 * {@code head} and {@code manifest_version_id} are null (or, as serde reads an {@code Option}, absent) when
 * unknown. In the <em>request</em>
 * form, stamped before the copy, {@code head} is null; the <em>receipt</em> form carries the head the manifest
 * made.
 *
 * @param epochId           the chain epoch
 * @param seq               the manifest's sequence number, an unsigned 64-bit integer in a long's bits
 * @param prevHead          the head before it
 * @param head              the head the manifest made; empty in the request form
 * @param manifestVersionId the store's version of the manifest object, where the bucket keeps versions
 */
public record WormChainRecord(
        Uuid epochId, long seq, ChainHead prevHead, Optional<ChainHead> head, Optional<String> manifestVersionId) {

    /** The record format: {@code WORM_CHAIN_RECORD_VERSION}. */
    public static final short VERSION = 0;

    private static final DocumentKind CHAIN_RECORD = DocumentKind.CHAIN_RECORD;
    private static final Set<String> FIELDS =
            Set.of("version", "epoch_id", "seq", "prev_head", "head", "manifest_version_id");

    /** Validates the parts. */
    public WormChainRecord {
        Objects.requireNonNull(epochId, "epochId");
        Objects.requireNonNull(prevHead, "prevHead");
        Objects.requireNonNull(head, "head");
        Objects.requireNonNull(manifestVersionId, "manifestVersionId");
    }

    /** The request form, stamped before the copy of the manifest at {@code chain}. */
    public static WormChainRecord request(ChainStamp chain) {
        return new WormChainRecord(chain.epochId(), chain.seq(), chain.prevHead(), Optional.empty(), Optional.empty());
    }

    /** The receipt of a manifest written at {@code chain}, which made {@code head}. */
    public static WormChainRecord receipt(ChainStamp chain, ChainHead head, Optional<String> manifestVersionId) {
        return new WormChainRecord(
                chain.epochId(), chain.seq(), chain.prevHead(), Optional.of(head), manifestVersionId);
    }

    /** Whether this is a receipt, carrying the head its manifest made. */
    public boolean isReceipt() {
        return head.isPresent();
    }

    /** The chain position the record is about. */
    public ChainStamp stamp() {
        return new ChainStamp(epochId, seq, prevHead);
    }

    /** The compact JSON. */
    public byte[] encode() {
        return CompactJson.write(json -> {
            json.writeStartObject();
            json.writeNumberField("version", VERSION);
            CompactJson.uuid(json, "epoch_id", epochId);
            CompactJson.unsignedLong(json, "seq", seq);
            json.writeStringField("prev_head", prevHead.hex());
            CompactJson.optionalString(json, "head", head.map(ChainHead::hex));
            CompactJson.optionalString(json, "manifest_version_id", manifestVersionId);
            json.writeEndObject();
        });
    }

    /** The record as a segment's custom metadata. */
    public CustomMetadata toCustomMetadata() {
        return new CustomMetadata(encode());
    }

    /**
     * Reads a record.
     *
     * @throws UnsupportedFormatVersionException if it has no {@code version} or one other than {@value #VERSION}
     * @throws MalformedDocumentException        if it is not JSON, or not a record of its version
     */
    public static WormChainRecord decode(byte[] json) throws ArchiveFormatException {
        StrictJsonObject fields = StrictJsonObject.parse(CHAIN_RECORD, json);
        if (!fields.has("version")) {
            throw new UnsupportedFormatVersionException(CHAIN_RECORD, Optional.empty(), Short.toString(VERSION));
        }
        short version = fields.int16("version");
        if (version != VERSION) {
            throw new UnsupportedFormatVersionException(
                    CHAIN_RECORD, Optional.of((long) version), Short.toString(VERSION));
        }
        fields.allowOnly(FIELDS);
        return new WormChainRecord(
                fields.uuid("epoch_id"),
                fields.uint64("seq"),
                new ChainHead(fields.hex32("prev_head")),
                fields.optionalHex32("head").map(ChainHead::new),
                fields.optionalString("manifest_version_id"));
    }

    /**
     * Whether bytes claim to be a chain record at all: a JSON object with a {@code version} field. Custom metadata
     * that does not is no chain record (another storage manager's, or none).
     */
    public static boolean declaresVersion(byte[] bytes) {
        try {
            return StrictJsonObject.parse(CHAIN_RECORD, bytes).has("version");
        } catch (MalformedDocumentException e) {
            return false;
        }
    }
}
