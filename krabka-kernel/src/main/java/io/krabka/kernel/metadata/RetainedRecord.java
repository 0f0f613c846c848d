package io.krabka.kernel.metadata;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.kafka.common.protocol.Writable;

/**
 * A metadata record of a type Krabka replays but does not apply ({@link RetainedRecordType}): its body as Kafka wrote
 * it, at its version, written back byte for byte.
 *
 * @param type    the record type
 * @param version the version of the body
 * @param body    the record's bytes after the frame; read-only
 */
public record RetainedRecord(RetainedRecordType type, short version, ByteBuffer body) implements MetadataRecord {

    /** Checks the version and keeps a read-only view of the body. */
    public RetainedRecord {
        Objects.requireNonNull(type, "type");
        if (version < 0 || version > type.highestVersion()) {
            throw new MetadataParseException(
                    "Metadata record type " + type.apiKey() + " (" + type.recordName() + ") has no version " + version);
        }
        body = body.asReadOnlyBuffer();
    }

    @Override
    public short apiKey() {
        return type.apiKey();
    }

    @Override
    public short highestSupportedVersion() {
        return type.highestVersion();
    }

    /** Writes the body; only at the version it was read at, the one its bytes are in. */
    @Override
    public void write(Writable out, short version) {
        if (version != this.version) {
            throw new IllegalArgumentException(
                    type.recordName() + " was read at version " + this.version + ", not " + version);
        }
        out.writeByteBuffer(body.duplicate());
    }
}
