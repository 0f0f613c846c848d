package io.krabka.kernel.metadata;

import java.util.Optional;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.utils.internals.ByteUtils;

/**
 * A record of the metadata log that marks a metadata transaction (KIP-868) or nothing: Kafka's
 * {@code BeginTransactionRecord} (api key 23, its {@code Name} a tagged nullable string, tag 0),
 * {@code EndTransactionRecord} (24), {@code AbortTransactionRecord} (25) and {@code NoOpRecord} (20, which Kafka's
 * controller appends to advance the high watermark); all version 0, flexible, with no other fields. The records
 * between a begin and its end apply together; those before an abort, or before the end of the log, do not apply.
 *
 * @param kind which of them
 * @param name the begin record's description, if it has one (only a begin has)
 */
public record MetadataTransactionRecord(Kind kind, Optional<String> name) implements MetadataRecord {

    /** The four records, by api key. */
    public enum Kind {
        /** {@code NoOpRecord}. */
        NO_OP((short) 20),
        /** {@code BeginTransactionRecord}. */
        BEGIN((short) 23),
        /** {@code EndTransactionRecord}. */
        END((short) 24),
        /** {@code AbortTransactionRecord}. */
        ABORT((short) 25);

        private final short apiKey;

        Kind(short apiKey) {
            this.apiKey = apiKey;
        }

        /** The record type's api key. */
        public short apiKey() {
            return apiKey;
        }
    }

    /** Checks that only a begin record has a name. */
    public MetadataTransactionRecord {
        name.ifPresent(value -> Fields.checkString(value, "name"));
        if (name.isPresent() && kind != Kind.BEGIN) {
            throw new IllegalArgumentException(kind + " has no name");
        }
    }

    /** A record of {@code kind} without a name. */
    public static MetadataTransactionRecord of(Kind kind) {
        return new MetadataTransactionRecord(kind, Optional.empty());
    }

    @Override
    public short apiKey() {
        return kind.apiKey();
    }

    @Override
    public short highestSupportedVersion() {
        return 0;
    }

    @Override
    public void write(Writable out, short version) {
        Fields.checkVersion(this, version);
        if (name.isEmpty()) {
            out.writeUnsignedVarint(0);
            return;
        }
        out.writeUnsignedVarint(1);
        out.writeUnsignedVarint(0);
        int length = name.get().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        out.writeUnsignedVarint(ByteUtils.sizeOfUnsignedVarint(length + 1) + length);
        Fields.writeNullableString(out, name.get());
    }

    static MetadataTransactionRecord read(Readable in, Kind kind) {
        String[] name = new String[1];
        Fields.readTaggedFields(in, (tag, field) -> {
            if (tag == 0 && kind == Kind.BEGIN) {
                name[0] = Fields.readNullableString(field, "name");
            }
        });
        return new MetadataTransactionRecord(kind, Optional.ofNullable(name[0]));
    }
}
