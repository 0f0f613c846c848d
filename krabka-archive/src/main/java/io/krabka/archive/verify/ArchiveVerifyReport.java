package io.krabka.archive.verify;

import io.krabka.spi.objectstore.IncompleteUpload;
import java.util.List;
import java.util.Objects;

/**
 * What the verifier found in an archive (the original's {@code ArchiveVerifyReport}): a report per partition
 * directory, the objects outside any, and what the store holds half-written.
 *
 * @param location            where the archive is, as the store names it
 * @param prefix              the key prefix verified
 * @param deep                whether every object was re-read and hashed
 * @param partitions          the partitions checked, by directory name
 * @param globalOrphanObjects objects under the prefix outside any partition directory (reported only when no topic
 *                            or partition filter is given, since they belong to none)
 * @param incompleteUploads   writes in parts started and neither completed nor aborted, under the checked prefix
 * @param unmatchedHeads      expected heads for which no partition was checked
 */
public record ArchiveVerifyReport(
        String location,
        String prefix,
        boolean deep,
        List<PartitionVerifyReport> partitions,
        List<String> globalOrphanObjects,
        List<IncompleteUpload> incompleteUploads,
        List<UnmatchedHead> unmatchedHeads) {

    /** Validates the parts and freezes the lists. */
    public ArchiveVerifyReport {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(prefix, "prefix");
        partitions = List.copyOf(partitions);
        globalOrphanObjects = List.copyOf(globalOrphanObjects);
        incompleteUploads = List.copyOf(incompleteUploads);
        unmatchedHeads = List.copyOf(unmatchedHeads);
    }

    /** The manifests verified over all partitions. */
    public long manifests() {
        return partitions.stream().mapToLong(PartitionVerifyReport::manifests).sum();
    }

    /** The objects checked over all partitions. */
    public long objectsChecked() {
        return partitions.stream()
                .mapToLong(PartitionVerifyReport::objectsChecked)
                .sum();
    }

    /** Orphans over all partitions and outside any. */
    public long orphanObjects() {
        return globalOrphanObjects.size()
                + partitions.stream().mapToLong(p -> p.orphanObjects().size()).sum();
    }

    /** Whether every partition's chain verified. */
    public boolean ok() {
        return partitions.stream().allMatch(PartitionVerifyReport::ok);
    }
}
