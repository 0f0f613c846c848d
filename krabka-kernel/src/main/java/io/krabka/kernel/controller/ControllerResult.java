package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import java.util.List;
import java.util.Objects;

/**
 * What an operation decided (Kafka's {@code ControllerResult}): the records to append, none for a refusal or a
 * validate-only request, and the answer to give once they are committed.
 *
 * @param records  the records, appended as one batch
 * @param response the answer
 * @param <T>      the answer's type
 */
record ControllerResult<T>(List<MetadataRecordAndVersion> records, T response) {

    /** Copies the records. */
    ControllerResult {
        records = List.copyOf(records);
        Objects.requireNonNull(response, "response");
    }
}
