package io.krabka.kernel.restore.bound;

import io.krabka.kernel.record.Header;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Builds {@link RestoreBounds} from flag texts, as the launcher will, and batch headers and records to decide. */
final class Bounds {

    static final TopicPartition T0 = new TopicPartition("t", 0);
    static final TopicPartition T1 = new TopicPartition("t", 1);

    private final List<OffsetBound> toOffsets = new ArrayList<>();
    private Optional<TimestampBound> toTimestamp = Optional.empty();
    private final List<OffsetExclusion> excludeOffsets = new ArrayList<>();
    private final List<KeyExclusion> excludeKeys = new ArrayList<>();
    private final List<HeaderExclusion> excludeHeaders = new ArrayList<>();
    private final List<ProducerExclusion> excludeProducerIds = new ArrayList<>();

    static Bounds flags() {
        return new Bounds();
    }

    Bounds toOffset(String value) throws InvalidRestoreArgumentException {
        toOffsets.add(OffsetBound.parse(value));
        return this;
    }

    Bounds toTimestamp(String value) throws InvalidRestoreArgumentException {
        toTimestamp = Optional.of(TimestampBound.parse(value));
        return this;
    }

    Bounds excludeOffset(String value) throws InvalidRestoreArgumentException {
        excludeOffsets.add(OffsetExclusion.parse(value));
        return this;
    }

    Bounds excludeKey(String value) throws InvalidRestoreArgumentException {
        excludeKeys.add(KeyExclusion.parse(value));
        return this;
    }

    Bounds excludeHeader(String value) throws InvalidRestoreArgumentException {
        excludeHeaders.add(HeaderExclusion.parse(value));
        return this;
    }

    Bounds excludeProducerId(String value) throws InvalidRestoreArgumentException {
        excludeProducerIds.add(ProducerExclusion.parse(value));
        return this;
    }

    BoundArguments arguments() {
        return new BoundArguments(
                toOffsets, toTimestamp, excludeOffsets, excludeKeys, excludeHeaders, excludeProducerIds);
    }

    /** The bounds with every topic selected. */
    RestoreBounds build() throws InvalidRestoreArgumentException {
        return RestoreBounds.of(arguments(), Set.of());
    }

    /** A CreateTime data batch of partition t-0 without producer, its records at timestamp 100. */
    static BatchHeader batch(long base, long last) {
        return new BatchHeader(T0, base, last, 100, TimestampType.CREATE_TIME, -1, false);
    }

    static BatchHeader batch(long base, long last, long maxTimestamp, TimestampType type) {
        return new BatchHeader(T0, base, last, maxTimestamp, type, -1, false);
    }

    static BatchHeader producerBatch(long base, long last, long producerId) {
        return new BatchHeader(T0, base, last, 100, TimestampType.CREATE_TIME, producerId, false);
    }

    static BatchHeader marker(long offset, long timestamp, long producerId) {
        return new BatchHeader(T0, offset, offset, timestamp, TimestampType.CREATE_TIME, producerId, true);
    }

    static Record record(long offset, long timestamp) {
        return record(offset, timestamp, null, List.of());
    }

    static Record record(long offset, long timestamp, ByteBuffer key, List<Header> headers) {
        return new Record(offset, timestamp, -1, (byte) 0, key, null, headers);
    }

    private Bounds() {}
}
