package io.krabka.kernel.group;

import io.krabka.spi.common.TopicPartition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.protocol.Errors;

/**
 * What an OffsetDelete did.
 *
 * @param error      the group's error, which fails every partition: NONE, or why none was deleted
 * @param partitions each partition asked for, in order, with its error (none when {@code error} is not NONE)
 */
public record OffsetDeletion(Errors error, Map<TopicPartition, Errors> partitions) {

    /** Keeps the order. */
    public OffsetDeletion {
        Objects.requireNonNull(error, "error");
        partitions = Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
    }

    /** The deletion of a group that cannot delete offsets. */
    static OffsetDeletion failed(Errors error) {
        return new OffsetDeletion(error, Map.of());
    }
}
