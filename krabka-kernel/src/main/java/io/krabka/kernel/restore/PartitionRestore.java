package io.krabka.kernel.restore;

import io.krabka.kernel.restore.SegmentAuthority.PartitionAuthority;
import io.krabka.kernel.restore.SegmentAuthority.SegmentCheck;
import io.krabka.kernel.restore.materialize.PartitionWriter;
import io.krabka.kernel.restore.materialize.WrittenPartition;
import io.krabka.kernel.restore.report.PartitionReport;
import io.krabka.kernel.restore.report.SegmentOutcome;
import io.krabka.kernel.restore.report.SkippedSegment;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Restores one partition: its segments in offset order, each verified batch by batch while it is bounded and
 * written, until the cut. A segment that fails verification stops the restore, or with
 * {@code --continue-on-corrupt} is skipped with the rest of its partition, so a partition never has a hole.
 */
final class PartitionRestore {
    // Kafka's remote tier writes these for every segment; only the transaction index is optional.
    private static final Set<SegmentArtifact> REQUIRED =
            EnumSet.complementOf(EnumSet.of(SegmentArtifact.SEGMENT, SegmentArtifact.TRANSACTION_INDEX));
    private static final int READ_BUFFER = 256 * 1024;

    private final ObjectStore store;
    private final RestoreRequest request;
    private final SegmentVerifier verifier;
    private final RestoreProgress progress;
    private final InstantSource time;

    PartitionRestore(
            ObjectStore store,
            RestoreRequest request,
            SegmentVerifier verifier,
            RestoreProgress progress,
            InstantSource time) {
        this.store = store;
        this.request = request;
        this.verifier = verifier;
        this.progress = progress;
        this.time = time;
    }

    /** What restoring one partition gave. */
    record Outcome(PartitionReport report, List<SkippedSegment> skipped, Optional<WrittenPartition> written) {}

    /**
     * Restores {@code archived} as {@code topic}'s partition into {@code dir} (nothing is written on a dry run).
     *
     * @throws RestoreException naming the first failure
     * @throws IOException      if writing failed
     */
    Outcome restore(ArchivedPartition archived, String topic, Path dir) throws RestoreException, IOException {
        TopicPartition partition = new TopicPartition(topic, archived.partition());
        PartitionAuthority authority = request.authority().partition(archived);
        PartitionWriter writer = request.dryRun() ? null : new PartitionWriter(dir, partition, time);
        List<SegmentOutcome> outcomes = new ArrayList<>();
        List<SkippedSegment> skipped = new ArrayList<>();
        long lastWritten = -1;
        OptionalLong firstBase = OptionalLong.empty();
        for (ArchivedSegment segment : archived.segments()) {
            if (segment.abandoned().isPresent()) {
                skipped.add(new SkippedSegment(
                        topic,
                        archived.partition(),
                        segment.segmentId(),
                        "an abandoned copy: the write-once archive recorded that this upload failed"));
                continue;
            }
            Optional<StoredObject> log = segment.object(SegmentArtifact.SEGMENT);
            if (log.isEmpty()) {
                skipped.add(new SkippedSegment(
                        topic,
                        archived.partition(),
                        segment.segmentId(),
                        "no .log: an upload that never finished, or a deletion that did"));
                continue;
            }
            if (firstBase.isEmpty()) {
                firstBase = segment.startOffset();
            }
            SegmentPass pass;
            try {
                checkWhole(segment, log.get());
                pass = readSegment(partition, authority, segment, log.get(), writer, lastWritten);
            } catch (RestoreIntegrityException e) {
                if (!request.continueOnCorrupt()) {
                    throw e;
                }
                if (writer != null) {
                    writer.abandonSegment();
                }
                skipped.add(new SkippedSegment(
                        topic,
                        archived.partition(),
                        segment.segmentId(),
                        e.getMessage() + "; nothing after it in the partition was restored"));
                break;
            }
            if (pass.wroteAny()) {
                if (writer != null) {
                    writer.commitSegment(pass.lastWritten() + 1);
                }
                outcomes.add(new SegmentOutcome(
                        segment.segmentId(),
                        pass.baseOffset(),
                        pass.lastWritten(),
                        pass.batchesKept,
                        pass.batchesRewritten,
                        pass.batchesEmptied,
                        pass.recordsKept,
                        pass.recordsDropped,
                        pass.bytesWritten));
                lastWritten = pass.lastWritten();
            }
            if (pass.reachedCut()) {
                break;
            }
        }
        Optional<WrittenPartition> written = Optional.empty();
        if (writer != null) {
            if (writer.segments() == 0) {
                // Nothing before the cut: the partition is restored empty, starting where the archive's did.
                long base = firstBase.orElse(0);
                writer.openSegment(base, 0);
                writer.commitSegment(base);
            }
            written = Optional.of(writer.finish(archived.topicId()));
        }
        progress.partitionDone(partition.topic() + "-" + partition.partition());
        return new Outcome(
                new PartitionReport(topic, archived.partition(), archived.topicId(), outcomes), skipped, written);
    }

    // A copy with a .log but without an artifact Kafka's tier always writes was torn (or tampered with); a .log
    // beyond the 2 GiB that segment.bytes and a segment's int positions allow is no Kafka segment.
    private static void checkWhole(ArchivedSegment segment, StoredObject log) throws TornCopyException {
        if (log.size() > Integer.MAX_VALUE) {
            throw new TornCopyException(
                    log.key(), log.size() + " bytes, more than a Kafka segment holds (" + Integer.MAX_VALUE + ")");
        }
        for (SegmentArtifact artifact : REQUIRED) {
            if (segment.object(artifact).isEmpty()) {
                String key = log.key()
                                .substring(
                                        0,
                                        log.key().length()
                                                - SegmentArtifact.SEGMENT
                                                        .suffix()
                                                        .length())
                        + artifact.suffix();
                throw new TornCopyException(
                        key,
                        "missing: the copy of segment " + segment.segmentId() + " has a .log but no "
                                + artifact.suffix() + " object");
            }
        }
    }

    private SegmentPass readSegment(
            TopicPartition partition,
            PartitionAuthority authority,
            ArchivedSegment segment,
            StoredObject log,
            PartitionWriter writer,
            long lastWritten)
            throws RestoreException, IOException {
        SegmentCheck check = authority.segment(segment);
        long base = segment.startOffset().orElse(-1);
        SegmentPass pass = new SegmentPass(
                partition, log.key(), request.bounds(), writer, base, log.size(), lastWritten, progress);
        try (InputStream raw = store.read(log.key(), check.logVersion());
                InputStream in = new BufferedInputStream(check.wrap(raw), READ_BUFFER)) {
            verifier.verify(new SegmentObject(log.key(), OptionalLong.of(log.size()), Math.max(base, 0)), in, pass);
        } catch (SegmentPass.TargetWriteException e) {
            throw (IOException) e.getCause();
        } catch (RemoteStorageException | IOException e) {
            throw new UnreadableArchiveException("cannot read " + log.key() + ": " + e.getMessage(), e);
        }
        check.finish();
        return pass;
    }
}
