package io.krabka.kernel.restore.bound;

import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The restore's bound, checked before the archive is read: where each partition is cut and which records are
 * excluded, decided per batch from its header and, when the header cannot tell, per record. The semantics are
 * in the package documentation. Immutable and safe to share between the threads restoring partitions.
 */
public final class RestoreBounds {

    private static final OffsetRanges NO_RANGES = new OffsetRanges(List.of());

    private final BoundArguments arguments;
    private final Map<TopicPartition, OffsetBound> toOffsets;
    private final Map<TopicPartition, OffsetRanges> excludedOffsets;
    private final Set<Long> excludedProducers;

    private RestoreBounds(
            BoundArguments arguments,
            Map<TopicPartition, OffsetBound> toOffsets,
            Map<TopicPartition, OffsetRanges> excludedOffsets) {
        this.arguments = arguments;
        this.toOffsets = Map.copyOf(toOffsets);
        this.excludedOffsets = Map.copyOf(excludedOffsets);
        this.excludedProducers = arguments.excludeProducerIds().stream()
                .map(ProducerExclusion::producerId)
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Checks the bound flags against each other and the topic selection.
     *
     * @param arguments      the parsed flags
     * @param selectedTopics the topics {@code --topic} selects; empty when every topic is restored
     * @throws InvalidRestoreArgumentException when a partition has two {@code --to-offset}, a flag names a topic
     *                                         that is not selected, an {@code --exclude-offset} lies wholly after
     *                                         its partition's {@code --to-offset}, or the exclusions cover every
     *                                         offset up to it
     */
    public static RestoreBounds of(BoundArguments arguments, Set<String> selectedTopics)
            throws InvalidRestoreArgumentException {
        Map<TopicPartition, OffsetBound> toOffsets = new HashMap<>();
        for (OffsetBound bound : arguments.toOffsets()) {
            checkSelected(bound, selectedTopics);
            OffsetBound earlier = toOffsets.putIfAbsent(bound.partition(), bound);
            if (earlier != null) {
                throw InvalidRestoreArgumentException.of(
                        OffsetBound.FLAG,
                        bound.toString(),
                        "partition " + bound.partition() + " already has " + OffsetBound.FLAG + " " + earlier);
            }
        }
        Map<TopicPartition, List<OffsetExclusion>> byPartition = new HashMap<>();
        for (OffsetExclusion exclusion : arguments.excludeOffsets()) {
            checkSelected(exclusion, selectedTopics);
            OffsetBound bound = toOffsets.get(exclusion.partition());
            if (bound != null && exclusion.first() > bound.offset()) {
                throw InvalidRestoreArgumentException.of(
                        OffsetExclusion.FLAG,
                        exclusion.toString(),
                        "excludes nothing: it lies after " + OffsetBound.FLAG + " " + bound);
            }
            byPartition
                    .computeIfAbsent(exclusion.partition(), partition -> new ArrayList<>())
                    .add(exclusion);
        }
        Map<TopicPartition, OffsetRanges> excludedOffsets = new HashMap<>();
        for (Map.Entry<TopicPartition, List<OffsetExclusion>> entry : byPartition.entrySet()) {
            OffsetRanges ranges = new OffsetRanges(entry.getValue());
            OffsetBound bound = toOffsets.get(entry.getKey());
            if (bound != null && ranges.covers(0, bound.offset())) {
                throw InvalidRestoreArgumentException.of(
                        OffsetBound.FLAG,
                        bound.toString(),
                        OffsetExclusion.FLAG + " excludes every offset up to it: nothing of partition "
                                + bound.partition() + " would be restored");
            }
            excludedOffsets.put(entry.getKey(), ranges);
        }
        return new RestoreBounds(arguments, toOffsets, excludedOffsets);
    }

    private static void checkSelected(PartitionArgument argument, Set<String> selectedTopics)
            throws InvalidRestoreArgumentException {
        String topic = argument.partition().topic();
        if (!selectedTopics.isEmpty() && !selectedTopics.contains(topic)) {
            throw InvalidRestoreArgumentException.of(
                    argument.flag(), argument.toString(), "topic '" + topic + "' is not selected by --topic");
        }
    }

    /**
     * The {@code --to-offset} and {@code --exclude-offset} flags naming a partition the archive lacks, in the
     * order given; the caller refuses the restore when there is one.
     *
     * @param archived the partitions the archive holds
     */
    public List<PartitionArgument> unknownPartitions(Set<TopicPartition> archived) {
        return Stream.concat(arguments.toOffsets().stream(), arguments.excludeOffsets().stream())
                .filter(argument -> !archived.contains(argument.partition()))
                .map(PartitionArgument.class::cast)
                .toList();
    }

    /**
     * Whether nothing at or after {@code nextOffset} can be kept in {@code partition}: it has a
     * {@code --to-offset} below {@code nextOffset}. A {@code --to-timestamp} cut is found only in the records,
     * as a {@link BatchDecision#DROP} or {@link RecordDecision#BEYOND_CUT}.
     */
    public boolean isComplete(TopicPartition partition, long nextOffset) {
        OffsetBound bound = toOffsets.get(partition);
        return bound != null && nextOffset > bound.offset();
    }

    /** What to do with a batch, from its header alone. */
    public BatchDecision decide(BatchHeader batch) {
        OffsetBound bound = toOffsets.get(batch.partition());
        Optional<TimestampBound> cut = arguments.toTimestamp();
        // Under LogAppendTime every record carries the max timestamp, so the header places them all.
        boolean allAfterTime = cut.isPresent()
                && batch.timestampType() == TimestampType.LOG_APPEND_TIME
                && cut.get().isBeyond(batch.maxTimestamp());
        if ((bound != null && batch.baseOffset() > bound.offset()) || allAfterTime) {
            return BatchDecision.DROP;
        }
        boolean straddles = (bound != null && batch.lastOffset() > bound.offset())
                || (cut.isPresent() && cut.get().isBeyond(batch.maxTimestamp()));
        if (batch.control()) {
            return straddles ? BatchDecision.FILTER : BatchDecision.KEEP;
        }
        OffsetRanges ranges = excludedOffsets.getOrDefault(batch.partition(), NO_RANGES);
        boolean producerExcluded = excludedProducers.contains(batch.producerId());
        if (!straddles && (producerExcluded || ranges.covers(batch.baseOffset(), batch.lastOffset()))) {
            return BatchDecision.EMPTY;
        }
        if (straddles
                || producerExcluded
                || ranges.overlaps(batch.baseOffset(), batch.lastOffset())
                || !arguments.excludeKeys().isEmpty()
                || !arguments.excludeHeaders().isEmpty()) {
            return BatchDecision.FILTER;
        }
        return BatchDecision.KEEP;
    }

    /** What to do with one record of a batch that {@link #decide(BatchHeader)} said to filter. */
    public RecordDecision decide(BatchHeader batch, Record record) {
        OffsetBound bound = toOffsets.get(batch.partition());
        Optional<TimestampBound> cut = arguments.toTimestamp();
        if ((bound != null && record.offset() > bound.offset())
                || (cut.isPresent() && cut.get().isBeyond(record.timestamp()))) {
            return RecordDecision.BEYOND_CUT;
        }
        if (!batch.control() && isExcluded(batch, record)) {
            return RecordDecision.EXCLUDED;
        }
        return RecordDecision.KEEP;
    }

    /** The exclusions, OR-combined. */
    private boolean isExcluded(BatchHeader batch, Record record) {
        return excludedProducers.contains(batch.producerId())
                || excludedOffsets.getOrDefault(batch.partition(), NO_RANGES).contains(record.offset())
                || arguments.excludeKeys().stream().anyMatch(key -> key.matches(record.key()))
                || arguments.excludeHeaders().stream().anyMatch(header -> header.matches(record.headers()));
    }
}
