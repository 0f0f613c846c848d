package io.krabka.testkit;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The metadata kit fails implementations that break its rules: each case below is the reference implementation
 * with one fault, and the test checks that exactly the rules about that fault fail.
 */
class RemoteLogMetadataManagerConformanceCatchesFaultsTest {

    private static final String CONCURRENCY = "required_concurrentWritesAndReadsAcrossPartitions";

    /** The reference implementation with a fault a subclass adds. */
    abstract static class Faulty extends RemoteLogMetadataManagerConformance {
        abstract RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct);

        @Override
        protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
            return withFault(new ReferenceRemoteLogMetadataManager());
        }
    }

    /** Drops illegal segment transitions silently, as Kafka's topic-based manager does. */
    static class AcceptsIllegalTransitions extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata segment)
                        throws RemoteStorageException {
                    try {
                        return delegate.addRemoteLogSegmentMetadata(segment);
                    } catch (InvalidStateTransitionException dropped) {
                        return CompletableFuture.completedFuture(null);
                    }
                }

                @Override
                public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
                        throws RemoteStorageException {
                    try {
                        return delegate.updateRemoteLogSegmentMetadata(update);
                    } catch (InvalidStateTransitionException dropped) {
                        return CompletableFuture.completedFuture(null);
                    }
                }
            };
        }
    }

    static class AcceptsAnyStateOnAdd extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata segment)
                        throws RemoteStorageException {
                    return segment.state() == RemoteLogSegmentState.COPY_SEGMENT_STARTED
                            ? delegate.addRemoteLogSegmentMetadata(segment)
                            : CompletableFuture.completedFuture(null);
                }
            };
        }
    }

    static class IgnoresUpdatesOfUnknownSegments extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update)
                        throws RemoteStorageException {
                    try {
                        return delegate.updateRemoteLogSegmentMetadata(update);
                    } catch (RemoteResourceNotFoundException ignored) {
                        return CompletableFuture.completedFuture(null);
                    }
                }
            };
        }
    }

    /** Answers lookups with segments whose copy has only started. */
    static class ReadsCopyStartedSegments extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
                        TopicIdPartition tp, int epoch, long offset) throws RemoteStorageException {
                    Optional<RemoteLogSegmentMetadata> found = delegate.remoteLogSegmentMetadata(tp, epoch, offset);
                    return found.isPresent()
                            ? found
                            : containing(delegate, tp, epoch, offset, RemoteLogSegmentState.COPY_SEGMENT_STARTED);
                }
            };
        }
    }

    /** Finds a readable segment by its offsets alone, ignoring where the asked epoch ends inside it. */
    static class IgnoresEpochEnds extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
                        TopicIdPartition tp, int epoch, long offset) throws RemoteStorageException {
                    Optional<RemoteLogSegmentMetadata> found = delegate.remoteLogSegmentMetadata(tp, epoch, offset);
                    return found.isPresent()
                            ? found
                            : containing(delegate, tp, epoch, offset, RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
                }
            };
        }
    }

    static class ListsEpochsUnsorted extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition tp, int epoch)
                        throws RemoteStorageException {
                    List<RemoteLogSegmentMetadata> listed = new ArrayList<>();
                    delegate.listRemoteLogSegments(tp, epoch).forEachRemaining(listed::add);
                    Collections.reverse(listed);
                    return listed.iterator();
                }
            };
        }
    }

    /** Computes the highest offset from the readable segments only, so deletion lowers it. */
    static class HighestOffsetFromReadableSegments extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public Optional<Long> highestOffsetForEpoch(TopicIdPartition tp, int epoch)
                        throws RemoteStorageException {
                    Optional<Long> highest = Optional.empty();
                    for (Iterator<RemoteLogSegmentMetadata> it = delegate.listRemoteLogSegments(tp, epoch);
                            it.hasNext(); ) {
                        RemoteLogSegmentMetadata s = it.next();
                        if (s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED) {
                            Map.Entry<Integer, Long> next =
                                    s.segmentLeaderEpochs().higherEntry(epoch);
                            long end = next != null ? next.getValue() - 1 : s.endOffset();
                            highest = Optional.of(Math.max(end, highest.orElse(end)));
                        }
                    }
                    return highest;
                }
            };
        }
    }

    /** Never lets go of a partition's metadata: the last step of its deletion is dropped. */
    static class KeepsDeletedPartitions extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata deletion)
                        throws RemoteStorageException {
                    return deletion.state() == RemotePartitionDeleteState.DELETE_PARTITION_FINISHED
                            ? CompletableFuture.completedFuture(null)
                            : delegate.putRemotePartitionDeleteMetadata(deletion);
                }
            };
        }
    }

    /** Declares the KIP-1058 lookup but keeps the SPI's default. */
    static class ClaimsTxnIndexSkipping extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
                        TopicIdPartition tp, int epoch, long offset) throws RemoteStorageException {
                    return delegate.remoteLogSegmentMetadata(tp, epoch, offset);
                }
            };
        }
    }

    /** Claims durability, yet every instance starts empty. */
    static class ForgetsOnRestart extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return correct;
        }

        @Override
        protected Set<RemoteLogMetadataManagerCapability> capabilities() {
            return EnumSet.allOf(RemoteLogMetadataManagerCapability.class);
        }
    }

    /** Keeps answering after close(), as an instance whose close() releases nothing would. */
    static class ServesAfterClose extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                @Override
                public void close() {}
            };
        }
    }

    /** Refuses lookups after close() but still takes writes. */
    static class StoresAfterClose extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return new ForwardingRemoteLogMetadataManager(correct) {
                private volatile boolean closed;

                @Override
                public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata segment)
                        throws RemoteStorageException {
                    return closed
                            ? CompletableFuture.completedFuture(null)
                            : delegate.addRemoteLogSegmentMetadata(segment);
                }

                @Override
                public void close() throws java.io.IOException {
                    closed = true;
                    delegate.close();
                }
            };
        }
    }

    static class BadKnobs extends Faulty {
        @Override
        RemoteLogMetadataManager withFault(RemoteLogMetadataManager correct) {
            return correct;
        }

        @Override
        protected int concurrency() {
            return 1_000;
        }

        @Override
        protected Duration operationTimeout() {
            return Duration.ofSeconds(-1);
        }
    }

    /** The first segment in {@code state} that holds the offset and has the epoch, ignoring where the epoch ends. */
    private static Optional<RemoteLogSegmentMetadata> containing(
            RemoteLogMetadataManager rlmm, TopicIdPartition tp, int epoch, long offset, RemoteLogSegmentState state)
            throws RemoteStorageException {
        for (Iterator<RemoteLogSegmentMetadata> it = rlmm.listRemoteLogSegments(tp, epoch); it.hasNext(); ) {
            RemoteLogSegmentMetadata s = it.next();
            if (s.state() == state && s.startOffset() <= offset && offset <= s.endOffset()) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    @Test
    void acceptingIllegalTransitionsFailsTheTransitionRule() {
        KitRun.of(AcceptsIllegalTransitions.class).expectFailed("required_illegalSegmentTransitionIsRefused");
    }

    @Test
    void acceptingAnyStateOnAddFailsTheAddRule() {
        KitRun.of(AcceptsAnyStateOnAdd.class).expectFailed("required_addRequiresCopySegmentStarted");
    }

    @Test
    void ignoringUpdatesOfUnknownSegmentsFailsTheNotFoundRules() {
        KitRun.of(IgnoresUpdatesOfUnknownSegments.class)
                .expectFailed("required_updateOfUnknownSegmentIsNotFound", "required_deleteSegmentFinishedIsFinal");
    }

    @Test
    void readingCopyStartedSegmentsFailsTheVisibilityRule() {
        // The concurrent readers may or may not catch a segment between its start and finish, so that rule is left out.
        KitRun.excluding(ReadsCopyStartedSegments.class, CONCURRENCY)
                .expectFailed("required_copyStartedSegmentIsListedButNotReadable");
    }

    @Test
    void ignoringEpochEndsFailsTheEpochLookupRules() {
        KitRun.of(IgnoresEpochEnds.class)
                .expectFailed(
                        "required_lookupBeyondTheEpochEndInsideASegmentIsEmpty",
                        "required_lookupFollowsLeaderEpochsAcrossSegments");
    }

    @Test
    void unsortedListingsFailTheListingRules() {
        // The concurrent readers may finish before an epoch holds two segments, so that rule is left out.
        KitRun.excluding(ListsEpochsUnsorted.class, CONCURRENCY)
                .expectFailed(
                        "required_listingByEpochIsSortedByStartOffset",
                        "required_listingHoldsEveryStateButDeleteFinished",
                        "required_deleteStartedSegmentIsListedButNotReadable");
    }

    @Test
    void forgettingTheHighestOffsetOnDeletionFailsItsRules() {
        KitRun.of(HighestOffsetFromReadableSegments.class)
                .expectFailed("required_highestOffsetForEpochOutlivesDeletionOfItsSegments", CONCURRENCY);
    }

    @Test
    void keepingDeletedPartitionsFailsThePartitionDeletionRules() {
        KitRun.of(KeepsDeletedPartitions.class)
                .expectFailed(
                        "required_partitionMetadataIsGoneAfterDeletionFinished",
                        "required_illegalPartitionDeletionStepIsRefused");
    }

    @Test
    void capabilityClaimsAreChecked() {
        KitRun.of(ClaimsTxnIndexSkipping.class)
                .expectFailed("optional_nextSegmentWithTxnIndexSkipsSegmentsWithoutAbortedTransactions");
        KitRun.of(ForgetsOnRestart.class)
                .expectFailed("optional_metadataSurvivesRestart", "required_callsAfterCloseFailAndDoNothing");
    }

    @Test
    void badKnobsFailTheirValidation() {
        KitRun.only(BadKnobs.class, "required_validate_concurrency", "required_validate_operationTimeout")
                .expectFailed("required_validate_concurrency", "required_validate_operationTimeout");
    }

    @Test
    void callsAfterCloseMustFailAsAClosedInstance() {
        KitRun.of(ServesAfterClose.class).expectFailed("required_callsAfterCloseFailAndDoNothing");
        KitRun.of(StoresAfterClose.class).expectFailed("required_callsAfterCloseFailAndDoNothing");
    }
}
