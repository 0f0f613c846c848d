package io.krabka.archive.verify;

import io.krabka.archive.manifest.ChainHead;
import io.krabka.spi.common.TopicIdPartition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the verifier found in one partition directory (the original's {@code PartitionVerifyReport}, with abandoned
 * copies and the tail added).
 *
 * @param partitionDir               the directory's name under the prefix, {@code <topic>-<partition>-<topic id>}
 * @param partition                  the partition its manifests name; empty when none could be read
 * @param manifests                  the manifests verified, up to the first break
 * @param objectsChecked             the objects those manifests name that were found as recorded
 * @param bytesChecked               the bytes hashed (deep verification only)
 * @param createPreconditionObjects  checked objects whose manifest entry says the store refused an existing key at
 *                                   their write (unauthenticated: the entry's flag is outside the chain)
 * @param bucketRetentionObjects     checked objects the store reports held by a retention (GOVERNANCE or COMPLIANCE)
 * @param complianceRetentionObjects of those, the ones held in COMPLIANCE mode, which no one can lift
 * @param epochs                     the chain epochs, in offset order
 * @param unsignedManifests          verified manifests without a signature
 * @param untrustedManifests         verified manifests signed under a key id not trusted, or carrying another key
 * @param orphanObjects              objects in the directory that no manifest and no trusted abandonment names
 * @param offsetGaps                 offsets between consecutive manifests that none covers
 * @param head                       the head of the last verified manifest: the tip; empty when none verified
 * @param firstBreak                 where the walk stopped; empty when the whole chain verified
 * @param abandonedCopies            copies abandoned by a trusted record
 * @param rejectedAbandonmentRecords abandonment records that excuse nothing
 * @param expectedHead               the head the tip was expected to be, if one was given
 * @param tail                       what is known of the tail
 */
public record PartitionVerifyReport(
        String partitionDir,
        Optional<TopicIdPartition> partition,
        long manifests,
        long objectsChecked,
        long bytesChecked,
        ProtectionCount createPreconditionObjects,
        ProtectionCount bucketRetentionObjects,
        long complianceRetentionObjects,
        List<EpochSpan> epochs,
        long unsignedManifests,
        long untrustedManifests,
        List<String> orphanObjects,
        List<OffsetGap> offsetGaps,
        Optional<ChainHead> head,
        Optional<ChainBreak> firstBreak,
        List<AbandonedCopy> abandonedCopies,
        List<RejectedRecord> rejectedAbandonmentRecords,
        Optional<ChainHead> expectedHead,
        TailStatus tail) {

    /** Validates the parts and freezes the lists. */
    public PartitionVerifyReport {
        Objects.requireNonNull(partitionDir, "partitionDir");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(createPreconditionObjects, "createPreconditionObjects");
        Objects.requireNonNull(bucketRetentionObjects, "bucketRetentionObjects");
        epochs = List.copyOf(epochs);
        orphanObjects = List.copyOf(orphanObjects);
        offsetGaps = List.copyOf(offsetGaps);
        Objects.requireNonNull(head, "head");
        Objects.requireNonNull(firstBreak, "firstBreak");
        abandonedCopies = List.copyOf(abandonedCopies);
        rejectedAbandonmentRecords = List.copyOf(rejectedAbandonmentRecords);
        Objects.requireNonNull(expectedHead, "expectedHead");
        Objects.requireNonNull(tail, "tail");
        if (expectedHead.isEmpty() != (tail == TailStatus.UNVERIFIED)) {
            throw new IllegalArgumentException("tail " + tail + " with expected head " + expectedHead);
        }
    }

    /** Whether the whole chain verified: no break. */
    public boolean ok() {
        return firstBreak.isEmpty();
    }

    /** How many times the chain started a fresh epoch after its first. */
    public int epochRestarts() {
        return Math.max(0, epochs.size() - 1);
    }

    /** The first offset the verified manifests cover; empty when none verified. */
    public Optional<Long> startOffset() {
        return epochs.isEmpty()
                ? Optional.empty()
                : Optional.of(epochs.getFirst().startOffset());
    }

    /** The last offset the verified manifests cover; empty when none verified. */
    public Optional<Long> endOffset() {
        return epochs.isEmpty()
                ? Optional.empty()
                : Optional.of(epochs.getLast().endOffset());
    }

    /** This report with its tip compared against an expected head. */
    PartitionVerifyReport expecting(ChainHead expected) {
        TailStatus status = head.filter(expected::equals).isPresent() ? TailStatus.VERIFIED : TailStatus.MISMATCH;
        return new PartitionVerifyReport(
                partitionDir,
                partition,
                manifests,
                objectsChecked,
                bytesChecked,
                createPreconditionObjects,
                bucketRetentionObjects,
                complianceRetentionObjects,
                epochs,
                unsignedManifests,
                untrustedManifests,
                orphanObjects,
                offsetGaps,
                head,
                firstBreak,
                abandonedCopies,
                rejectedAbandonmentRecords,
                Optional.of(expected),
                status);
    }
}
