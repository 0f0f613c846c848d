package io.krabka.archive.verify;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.TrustedKeys;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code krabka verify} checks and how it grades.
 *
 * @param layout             the archive's key prefix
 * @param topic              only partitions whose manifests name this topic; empty for all
 * @param partition          only partitions of this number; empty for all
 * @param trustedKeys        the keys signatures are checked against
 * @param expectedHeads      the heads the partitions' tips must be
 * @param deep               re-read every object and check its SHA-256, not only its presence and size
 * @param allowEpochRestarts grade a chain that restarted as complete
 * @param strictOrphans      grade orphan objects as incomplete, not only report them
 * @param parallelism        how many partitions are verified at once, at least 1
 */
public record VerifyOptions(
        ArchiveLayout layout,
        Optional<String> topic,
        Optional<Integer> partition,
        TrustedKeys trustedKeys,
        ExpectedHeads expectedHeads,
        boolean deep,
        boolean allowEpochRestarts,
        boolean strictOrphans,
        int parallelism) {

    /** Validates the parts. */
    public VerifyOptions {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(trustedKeys, "trustedKeys");
        Objects.requireNonNull(expectedHeads, "expectedHeads");
        if (partition.isPresent() && partition.get() < 0) {
            throw new IllegalArgumentException("a partition number is at least 0: " + partition.get());
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism is at least 1: " + parallelism);
        }
    }

    /**
     * Every partition under the layout's prefix, no trusted key and no expected head, shallow, strict about
     * restarts, lenient about orphans, one partition per processor at a time.
     */
    public static VerifyOptions of(ArchiveLayout layout) {
        return new VerifyOptions(
                layout,
                Optional.empty(),
                Optional.empty(),
                TrustedKeys.none(),
                ExpectedHeads.NONE,
                false,
                false,
                false,
                Runtime.getRuntime().availableProcessors());
    }

    /** These options with a topic filter. */
    public VerifyOptions withTopic(String name) {
        return new VerifyOptions(
                layout,
                Optional.of(name),
                partition,
                trustedKeys,
                expectedHeads,
                deep,
                allowEpochRestarts,
                strictOrphans,
                parallelism);
    }

    /** These options with a partition filter. */
    public VerifyOptions withPartition(int number) {
        return new VerifyOptions(
                layout,
                topic,
                Optional.of(number),
                trustedKeys,
                expectedHeads,
                deep,
                allowEpochRestarts,
                strictOrphans,
                parallelism);
    }

    /** These options with trusted keys. */
    public VerifyOptions withTrustedKeys(TrustedKeys keys) {
        return new VerifyOptions(
                layout, topic, partition, keys, expectedHeads, deep, allowEpochRestarts, strictOrphans, parallelism);
    }

    /** These options with expected heads. */
    public VerifyOptions withExpectedHeads(ExpectedHeads heads) {
        return new VerifyOptions(
                layout, topic, partition, trustedKeys, heads, deep, allowEpochRestarts, strictOrphans, parallelism);
    }

    /** These options, deep or shallow. */
    public VerifyOptions withDeep(boolean value) {
        return new VerifyOptions(
                layout,
                topic,
                partition,
                trustedKeys,
                expectedHeads,
                value,
                allowEpochRestarts,
                strictOrphans,
                parallelism);
    }

    /** These options, allowing epoch restarts or not. */
    public VerifyOptions withAllowEpochRestarts(boolean value) {
        return new VerifyOptions(
                layout, topic, partition, trustedKeys, expectedHeads, deep, value, strictOrphans, parallelism);
    }

    /** These options, strict about orphans or not. */
    public VerifyOptions withStrictOrphans(boolean value) {
        return new VerifyOptions(
                layout, topic, partition, trustedKeys, expectedHeads, deep, allowEpochRestarts, value, parallelism);
    }

    /** These options with another parallelism. */
    public VerifyOptions withParallelism(int value) {
        return new VerifyOptions(
                layout, topic, partition, trustedKeys, expectedHeads, deep, allowEpochRestarts, strictOrphans, value);
    }

    /** Whether a topic or partition filter is set. */
    public boolean filtered() {
        return topic.isPresent() || partition.isPresent();
    }
}
