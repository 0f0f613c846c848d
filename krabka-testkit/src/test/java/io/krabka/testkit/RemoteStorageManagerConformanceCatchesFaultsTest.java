package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The storage kit fails implementations that break its rules: each case below is the reference implementation
 * with one fault, and the test checks that exactly the rules about that fault fail.
 */
class RemoteStorageManagerConformanceCatchesFaultsTest {

    private static final String LARGE_SEGMENT = "required_largeSegmentIsStreamedWithBoundedMemory";
    private static final String CONCURRENCY = "required_concurrentCopiesFetchesAndDeletesOfDifferentSegments";
    private static final String AFTER_CLOSE = "required_callsAfterCloseFailAndDoNothing";
    private static final String INTERRUPTS = "required_interruptedCallsCompleteOrFailAndLeaveTheInstanceWorking";
    private static final String FOREIGN_CUSTOM_METADATA =
            "required_customMetadataTheImplementationDidNotWriteIsRefusedOrIgnored";

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
                        if (data.logSegment().toFile().exists()) {
                            delegate.copyLogSegmentData(metadata, logOnly(data));
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

    /** Copies the log first and, when a file it found turns out unreadable, gives up leaving the log behind. */
    static class ReadFailureLeavesTheLog extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    boolean allThere = Stream.of(
                                    data.logSegment(),
                                    data.offsetIndex(),
                                    data.timeIndex(),
                                    data.producerSnapshotIndex())
                            .allMatch(Files::exists);
                    try {
                        return delegate.copyLogSegmentData(metadata, data);
                    } catch (RemoteStorageException e) {
                        if (allThere) {
                            delegate.copyLogSegmentData(metadata, logOnly(data));
                        }
                        throw e;
                    }
                }
            };
        }
    }

    /** Keeps serving after close(), as an instance whose close() releases nothing would. */
    static class ServesAfterClose extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public void close() {}
            };
        }
    }

    /** Refuses calls after close() as a storage failure, which a caller may retry, not as a closed instance. */
    static class ClosedLooksLikeAStorageFailure extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                private volatile boolean closed;

                private void check() throws RemoteStorageException {
                    if (closed) {
                        throw new RemoteStorageException("closed");
                    }
                }

                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    check();
                    return delegate.copyLogSegmentData(metadata, data);
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    check();
                    return delegate.fetchLogSegment(metadata, start);
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    check();
                    return delegate.fetchLogSegment(metadata, start, end);
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    check();
                    return delegate.fetchIndex(metadata, type);
                }

                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
                    check();
                    delegate.deleteLogSegmentData(metadata);
                }

                @Override
                public void close() throws IOException {
                    closed = true;
                    delegate.close();
                }
            };
        }
    }

    /** A fault whose symptom is a hang: the kit's operation timeout is short, so the hang is reported quickly. */
    abstract static class Hangs extends Faulty {
        @Override
        protected Duration operationTimeout() {
            return Duration.ofSeconds(10);
        }
    }

    /** close() waits until every stream it returned is closed. */
    static class CloseWaitsForOpenStreams extends Hangs {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            Phaser open = new Phaser(1);
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    return tracked(delegate.fetchLogSegment(metadata, start));
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    return tracked(delegate.fetchIndex(metadata, type));
                }

                private InputStream tracked(InputStream stream) {
                    open.register();
                    return new FilterInputStream(stream) {
                        private boolean closed;

                        @Override
                        public void close() throws IOException {
                            if (!closed) {
                                closed = true;
                                open.arriveAndDeregister();
                            }
                            super.close();
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    try {
                        open.awaitAdvanceInterruptibly(open.arrive());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted waiting for open streams");
                    }
                    delegate.close();
                }
            };
        }
    }

    /**
     * Fetches hold one of 16 pooled connections, given back only when a stream is read to its end, as a client that
     * drains nothing and aborts nothing on close would: streams closed early leak their connection, and the pool
     * runs dry.
     */
    static class ConnectionsReleasedOnlyAtTheEnd extends Hangs {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            Semaphore pool = new Semaphore(16);
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    lease();
                    try {
                        return pooled(delegate.fetchLogSegment(metadata, start));
                    } catch (RemoteStorageException | RuntimeException e) {
                        pool.release();
                        throw e;
                    }
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    lease();
                    try {
                        return pooled(delegate.fetchLogSegment(metadata, start, end));
                    } catch (RemoteStorageException | RuntimeException e) {
                        pool.release();
                        throw e;
                    }
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    lease();
                    try {
                        return pooled(delegate.fetchIndex(metadata, type));
                    } catch (RemoteStorageException | RuntimeException e) {
                        pool.release();
                        throw e;
                    }
                }

                private void lease() throws RemoteStorageException {
                    try {
                        pool.acquire();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new RemoteStorageException("interrupted waiting for a connection", e);
                    }
                }

                private InputStream pooled(InputStream stream) {
                    return new FilterInputStream(stream) {
                        private boolean released;

                        @Override
                        public int read() throws IOException {
                            return atEnd(super.read());
                        }

                        @Override
                        public int read(byte[] b, int off, int len) throws IOException {
                            return atEnd(super.read(b, off, len));
                        }

                        private int atEnd(int n) {
                            if (n < 0 && !released) {
                                released = true;
                                pool.release();
                            }
                            return n;
                        }
                    };
                }
            };
        }
    }

    /**
     * Every call first writes to one journal channel that all calls share: an interrupted call closes it with a
     * {@code ClosedByInterruptException}, and every later call, on any thread, fails.
     */
    static class SharedChannelClosedByInterrupt extends Faulty {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            FileChannel journal;
            try {
                journal = FileChannel.open(
                        scratch.resolve("journal"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Journaled(new ReferenceRemoteStorageManager(scratch), journal);
        }

        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            throw new UnsupportedOperationException();
        }
    }

    /** Checks for an interrupt itself and fails the call, clearing the thread's interrupt status. */
    static class SwallowsTheInterrupt extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    if (Thread.interrupted()) {
                        throw new RemoteStorageException("interrupted");
                    }
                    return delegate.fetchIndex(metadata, type);
                }
            };
        }
    }

    /** Keeps an object key in custom metadata and decodes what it gets without checking its length. */
    static class ParsesCustomMetadataUnchecked extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    delegate.copyLogSegmentData(metadata, data);
                    return Optional.of(new CustomMetadata(
                            metadata.remoteLogSegmentId().id().toBytes()));
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    return delegate.fetchLogSegment(checked(metadata), start);
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    return delegate.fetchLogSegment(checked(metadata), start, end);
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    return delegate.fetchIndex(checked(metadata), type);
                }

                private RemoteLogSegmentMetadata checked(RemoteLogSegmentMetadata metadata)
                        throws RemoteResourceNotFoundException {
                    if (metadata.customMetadata().isEmpty()) {
                        throw new RemoteResourceNotFoundException("no object key");
                    }
                    ByteBuffer key =
                            ByteBuffer.wrap(metadata.customMetadata().get().value());
                    Uuid id = new Uuid(key.getLong(), key.getLong());
                    if (!id.equals(metadata.remoteLogSegmentId().id())) {
                        throw new RemoteResourceNotFoundException("no object " + id);
                    }
                    return metadata;
                }
            };
        }

        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return EnumSet.allOf(RemoteStorageManagerCapability.class);
        }
    }

    /** Uses no custom metadata, yet refuses a fetch that carries some. */
    static class RefusesCustomMetadataItDoesNotUse extends Faulty {
        @Override
        RemoteStorageManager withFault(RemoteStorageManager correct) {
            return new ForwardingRemoteStorageManager(correct) {
                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    if (metadata.customMetadata().isPresent()) {
                        throw new RemoteStorageException("unexpected custom metadata");
                    }
                    return delegate.fetchLogSegment(metadata, start);
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
                        CONCURRENCY,
                        // These check a segment whole with a range fetch among others.
                        AFTER_CLOSE,
                        INTERRUPTS,
                        FOREIGN_CUSTOM_METADATA,
                        "required_copyFailingPartWayLeavesNothingFetchable",
                        "required_streamsClosedBeforeTheirEndReleaseWhatTheyHold");
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
        KitRun.of(FailedCopyLeavesTheLog.class)
                .expectFailed(
                        "required_failedCopyLeavesNothingFetchable",
                        "required_copyFailingPartWayLeavesNothingFetchable");
    }

    @Test
    void writeOnceClaimsAreChecked() {
        KitRun.of(DeletesDespiteWriteOnce.class)
                .expectFailed("required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost");
        // After close() its delete still claims the segment is missing instead of refusing as closed.
        KitRun.of(RefusesDeleteAsNotFound.class)
                .expectFailed("required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost", AFTER_CLOSE);
    }

    @Test
    void customMetadataClaimsAreChecked() {
        KitRun.of(OversizedCustomMetadata.class)
                .expectFailed("optional_copyReturnsCustomMetadataThatLaterCallsReceive");
        KitRun.of(UndeclaredCustomMetadata.class).expectFailed("required_withoutCustomMetadataCopyReturnsNone");
    }

    @Test
    void forgettingOnRestartFailsTheDurabilityRule() {
        // The rule on calls after close() reads the segments back through a new instance too.
        KitRun.of(ForgetsOnRestart.class).expectFailed("optional_segmentsSurviveRestart", AFTER_CLOSE);
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

    @Test
    void aCopyThatFailsPartWayAndLeavesTheLogFailsThePartWayRule() {
        KitRun.of(ReadFailureLeavesTheLog.class).expectFailed("required_copyFailingPartWayLeavesNothingFetchable");
    }

    @Test
    void callsAfterCloseMustFailAsAClosedInstance() {
        KitRun.of(ServesAfterClose.class).expectFailed(AFTER_CLOSE);
        KitRun.of(ClosedLooksLikeAStorageFailure.class).expectFailed(AFTER_CLOSE);
    }

    @Test
    void aCloseWaitingForOpenStreamsFailsTheCloseRule() {
        KitRun.excluding(CloseWaitsForOpenStreams.class, CONCURRENCY)
                .expectFailed("required_closeReturnsWithStreamsLeftOpenWhichThenEndOrFail");
    }

    @Test
    void streamsHoldingConnectionsPastTheirCloseFailTheStreamsRule() {
        KitRun.excluding(ConnectionsReleasedOnlyAtTheEnd.class, CONCURRENCY)
                .expectFailed("required_streamsClosedBeforeTheirEndReleaseWhatTheyHold");
    }

    @Test
    void interruptsThatBreakTheInstanceOrVanishFailTheInterruptRule() {
        KitRun.of(SharedChannelClosedByInterrupt.class).expectFailed(INTERRUPTS);
        KitRun.of(SwallowsTheInterrupt.class).expectFailed(INTERRUPTS);
    }

    @Test
    void customMetadataParsedUncheckedOrRefusedWhenUnusedFailsItsRule() {
        KitRun.of(ParsesCustomMetadataUnchecked.class).expectFailed(FOREIGN_CUSTOM_METADATA);
        KitRun.of(RefusesCustomMetadataItDoesNotUse.class).expectFailed(FOREIGN_CUSTOM_METADATA);
    }

    /** The reference behind a journal channel shared by every call; see {@link SharedChannelClosedByInterrupt}. */
    static final class Journaled extends ForwardingRemoteStorageManager {
        private final FileChannel journal;
        private volatile boolean closed;

        Journaled(RemoteStorageManager delegate, FileChannel journal) {
            super(delegate);
            this.journal = journal;
        }

        private void journal() throws RemoteStorageException {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            try {
                journal.write(ByteBuffer.wrap(new byte[] {1}), 0);
            } catch (IOException e) {
                throw new RemoteStorageException("cannot write the journal", e);
            }
        }

        @Override
        public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
                throws RemoteStorageException {
            journal();
            return delegate.copyLogSegmentData(metadata, data);
        }

        @Override
        public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start) throws RemoteStorageException {
            journal();
            return delegate.fetchLogSegment(metadata, start);
        }

        @Override
        public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                throws RemoteStorageException {
            journal();
            return delegate.fetchLogSegment(metadata, start, end);
        }

        @Override
        public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type) throws RemoteStorageException {
            journal();
            return delegate.fetchIndex(metadata, type);
        }

        @Override
        public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
            journal();
            delegate.deleteLogSegmentData(metadata);
        }

        @Override
        public void close() throws IOException {
            closed = true;
            journal.close();
            delegate.close();
        }
    }

    private static LogSegmentData logOnly(LogSegmentData data) {
        return new LogSegmentData(
                data.logSegment(),
                data.logSegment(),
                data.logSegment(),
                Optional.empty(),
                data.logSegment(),
                data.leaderEpochIndex());
    }
}
