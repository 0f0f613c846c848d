package io.krabka.kernel.metadata;

import java.util.Objects;

/**
 * A metadata record with the schema version it is (or is to be) written at: Kafka's {@code ApiMessageAndVersion}.
 *
 * @param record  the record
 * @param version its version
 */
public record MetadataRecordAndVersion(MetadataRecord record, short version) {

    /** Checks the version is the record's. */
    public MetadataRecordAndVersion {
        Objects.requireNonNull(record, "record");
        if (version < 0 || version > record.highestSupportedVersion()) {
            throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no version " + version);
        }
    }
}
