package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The storage kit fails implementations that break its rules: each case below is the reference implementation
 * with one fault, and the test checks that exactly the rules about that fault fail.
 */
class RemoteStorageManagerConformanceCatchesFaultsTest {

    private static final String LARGE_SEGMENT = "required_largeSegmentIsStreamedWithBoundedMemory";
    private static final String CONCURRENCY = "required_concurrentCopiesFetchesAndDeletesOfDifferentSegments";

    /** The reference implementation with a fault a subclass adds. */
    abstract static class Faulty extends RemoteStorageManagerConformance {
        abstract RemoteStorageManager withFault(RemoteStorageManager correct);

        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return withFault(new ReferenceRemoteStorageManager(scratch));
        }
    }

    static class IgnoresEndPosition extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    return delegate.fetchLogSegment(metadata, start);
                }
            };
        }
    }

    /** Reports bad ranges as Kafka's LocalTieredStorage does, with an IllegalArgumentException. */
    static class RangeErrorsUntyped extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    try {
                        return delegate.fetchLogSegment(metadata, start);
                    } catch (InvalidRangeException e) {
                        throw new IllegalArgumentException(e.getMessage());
                    }
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    try {
                        return delegate.fetchLogSegment(metadata, start, end);
                    } catch (InvalidRangeException e) {
                        throw new IllegalArgumentException(e.getMessage());
                    }
                }
            };
        }
    }

    static class DeleteOfMissingSegmentIsNotFound extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
                    delegate.fetchIndex(metadata, IndexType.OFFSET);
                    delegate.deleteLogSegmentData(metadata);
                }
            };
        }
    }

    static class RetryKeepsTheFirstCopy extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    try {
                        delegate.fetchIndex(metadata, IndexType.OFFSET).close();
                        return Optional.empty();
                    } catch (RemoteResourceNotFoundException | IOException firstAttempt) {
                        return delegate.copyLogSegmentData(metadata, data);
                    }
                }
            };
        }
    }

    static class MissingTxnIndexIsEmpty extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    try {
                        return delegate.fetchIndex(metadata, type);
                    } catch (RemoteResourceNotFoundException e) {
                        delegate.fetchIndex(metadata, IndexType.OFFSET);
                        return InputStream.nullInputStream();
                    }
                }
            };
        }
    }

    /** Copies the log first and gives up on a missing index, leaving the log behind. */
    static class FailedCopyLeavesTheLog extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    try {
                        return delegate.copyLogSegmentData(metadata, data);
                    } catch (RemoteStorageException e) {
                        LogSegmentData logOnly = new LogSegmentData(
                                data.logSegment(),
                                data.logSegment(),
                                data.logSegment(),
                                Optional.empty(),
                                data.logSegment(),
                                data.leaderEpochIndex());
                        if (data.logSegment().toFile().exists()) {
                            delegate.copyLogSegmentData(metadata, logOnly);
                        }
                        throw e;
                    }
                }
            };
        }
    }

    /** Claims write-once, yet deletes. */
    static class DeletesDespiteWriteOnce extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return correct;
        }

        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return EnumSet.of(RemoteStorageManagerCapability.DURABLE);
        }
    }

    /** Write-once, but refuses deletes claiming the segment is missing. */
    static class RefusesDeleteAsNotFound extends DeletesDespiteWriteOnce {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
                    throw new RemoteResourceNotFoundException("refused");
                }
            };
        }
    }

    /** Returns more custom metadata than the broker stores. */
    static class OversizedCustomMetadata extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    delegate.copyLogSegmentData(metadata, data);
                    return Optional.of(new CustomMetadata(new byte[200]));
                }
            };
        }

        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return EnumSet.allOf(RemoteStorageManagerCapability.class);
        }
    }

    /** Returns custom metadata without declaring it. */
    static class UndeclaredCustomMetadata extends OversizedCustomMetadata {
        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return RemoteStorageManagerCapability.defaults();
        }
    }

    /** Loses everything with the instance, yet claims durability. */
    static class ForgetsOnRestart extends Faulty {
        private int instances;

        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return correct;
        }

        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ReferenceRemoteStorageManager(scratch.resolve("instance-" + instances++));
        }
    }

    /**
     * Two copies that run at the same time swap their files, as copies sharing one staging buffer would. Copies
     * from the thread that created the instance run alone, so only a rule that really overlaps copies sees it.
     */
    static class OverlappingCopiesSwapFiles extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            Thread creator = Thread.currentThread();
            Exchanger<LogSegmentData> meetingPoint = new Exchanger<>();
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    if (Thread.currentThread() == creator) {
                        return delegate.copyLogSegmentData(metadata, data);
                    }
                    try {
                        return delegate.copyLogSegmentData(metadata, meetingPoint.exchange(data, 10, TimeUnit.SECONDS));
                    } catch (TimeoutException alone) {
                        return delegate.copyLogSegmentData(metadata, data);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new RemoteStorageException("interrupted", e);
                    }
                }
            };
        }
    }

    static class BadKnobs extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return correct;
        }

        @Override
        protected int largeSegmentBytes() {
            return 1_000;
        }

        @Override
        protected int customMetadataMaxBytes() {
            return 0;
        }

        @Override
        protected int concurrency() {
            return 1;
        }
    }

    @Test
    void ignoringTheEndPositionFailsTheRangeRules() {
        KitRun.of(IgnoresEndPosition.class)
                .expectFailed(
                        "required_fetchRangeIncludesBothEnds",
                        "required_invalidRangesAreRejected",
                        "optional_segmentsSurviveRestart",
                        CONCURRENCY);
    }

    @Test
    void untypedRangeErrorsFailTheInvalidRangeRules() {
        KitRun.of(RangeErrorsUntyped.class)
                .expectFailed("required_invalidRangesAreRejected", "required_emptySegmentRoundTrips");
    }

    @Test
    void deleteThrowingNotFoundFailsIdempotence() {
        KitRun.of(DeleteOfMissingSegmentIsNotFound.class).expectFailed("optional_deleteIsIdempotent");
    }

    @Test
    void aRetryKeepingTheFirstCopyFailsTheOverwriteRule() {
        KitRun.of(RetryKeepsTheFirstCopy.class).expectFailed("required_copyRetryWithTheSameIdOverwrites");
    }

    @Test
    void anEmptyStreamForAMissingTxnIndexFailsTheNotFoundRules() {
        KitRun.of(MissingTxnIndexIsEmpty.class)
                .expectFailed("required_missingTransactionIndexIsNotFound", "optional_segmentsSurviveRestart");
    }

    @Test
    void aFailedCopyLeavingTheLogBehindFailsTheAtomicityRule() {
        KitRun.of(FailedCopyLeavesTheLog.class).expectFailed("required_failedCopyLeavesNothingFetchable");
    }

    @Test
    void writeOnceClaimsAreChecked() {
        KitRun.of(DeletesDespiteWriteOnce.class)
                .expectFailed("required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost");
        KitRun.of(RefusesDeleteAsNotFound.class)
                .expectFailed("required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost");
    }

    @Test
    void customMetadataClaimsAreChecked() {
        KitRun.of(OversizedCustomMetadata.class)
                .expectFailed("optional_copyReturnsCustomMetadataThatLaterCallsReceive");
        KitRun.of(UndeclaredCustomMetadata.class).expectFailed("required_withoutCustomMetadataCopyReturnsNone");
    }

    @Test
    void forgettingOnRestartFailsTheDurabilityRule() {
        KitRun.of(ForgetsOnRestart.class).expectFailed("optional_segmentsSurviveRestart");
    }

    @Test
    void copiesThatInterfereFailTheConcurrencyRule() {
        KitRun.only(OverlappingCopiesSwapFiles.class, CONCURRENCY).expectFailed(CONCURRENCY);
    }

    @Test
    void badKnobsFailTheirValidation() {
        KitRun run = KitRun.only(
                BadKnobs.class,
                "required_validate_largeSegmentBytes",
                "required_validate_customMetadataMaxBytes",
                "required_validate_concurrency",
                "required_validate_operationTimeout",
                LARGE_SEGMENT);
        run.expectFailed(
                "required_validate_largeSegmentBytes",
                "required_validate_customMetadataMaxBytes",
                "required_validate_concurrency");
        assertTrue(run.messages().get(LARGE_SEGMENT).startsWith(Verdicts.NOT_VERIFIED), run::toString);
    }

    @Test
    void aRuleNotVerifiedFailsByDefault() {
        String before = System.clearProperty(Verdicts.FAIL_ON_NOT_VERIFIED);
        try {
            KitRun run = KitRun.only(BadKnobs.class, LARGE_SEGMENT);
            run.expectFailed(LARGE_SEGMENT);
            assertTrue(run.messages().get(LARGE_SEGMENT).startsWith(Verdicts.NOT_VERIFIED), run::toString);
            assertTrue(
                    run.messages()
                            .get(LARGE_SEGMENT)
                            .endsWith("(a rule the kit cannot check fails; "
                                    + "krabka.testkit.failOnNotVerified=false lets it end as skipped instead)"),
                    run::toString);
        } finally {
            if (before != null) {
                System.setProperty(Verdicts.FAIL_ON_NOT_VERIFIED, before);
            }
        }
    }
}
