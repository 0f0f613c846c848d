package io.krabka.testkit;

import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_FINISHED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_MARKED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_STARTED;
import static io.krabka.testkit.RemoteLogMetadataManagerCapability.DURABLE;
import static io.krabka.testkit.RemoteLogMetadataManagerCapability.NEXT_SEGMENT_WITH_TXN_INDEX;
import static io.krabka.testkit.SegmentBuilder.segment;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conformance kit for {@link RemoteLogMetadataManager} implementations: the rules of Krabka's remote log
 * metadata SPI as JUnit 5 tests that run against any implementation. Where a rule needs an answer the SPI leaves
 * open, it expects the answer of Kafka's {@code RemoteLogMetadataCache}, which Kafka's own
 * {@code RemoteLogSegmentLifecycleTest} and {@code RemoteLogMetadataCacheTest} check and Kafka's broker relies on.
 *
 * <p>Subclass it in a test of the plugin, implement {@link #createRemoteLogMetadataManager(Path)}, declare the
 * optional behaviours in {@link #capabilities()} and run the subclass as any test class:
 * {@snippet :
 * class InMemoryRemoteLogMetadataManagerConformanceTest extends RemoteLogMetadataManagerConformance {
 *     @Override
 *     protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
 *         InMemoryRemoteLogMetadataManager rlmm = new InMemoryRemoteLogMetadataManager();
 *         rlmm.configure(Map.of());
 *         return rlmm;
 *     }
 * }
 * }
 *
 * <p>Before a rule uses a partition it tells the manager this broker leads it ({@code onPartitionLeadershipChanges})
 * and waits until {@code isReady}. Writes may fail by throwing or through their future; the rules accept either.
 *
 * <p>Every rule is one test method. {@code required_…} rules hold for every implementation; {@code optional_…}
 * rules hold for implementations that declare the capability they check; {@code required_validate_…} rules check
 * this class's knobs as the subclass set them. A rule that does not apply to the implementation ends aborted with a
 * message starting {@code NOT APPLICABLE:}; a rule that the kit cannot check in this setting ends aborted with a
 * message starting {@code NOT VERIFIED:}. Neither is a pass. Rules are {@code final}, so that every implementation
 * answers to the same rules.
 */
public abstract class RemoteLogMetadataManagerConformance {

    private Path scratch;
    private MetadataScript script;

    /** For subclasses. */
    protected RemoteLogMetadataManagerConformance() {}

    /**
     * Creates the implementation under test, configured and ready. The kit calls this before every rule with a
     * new, empty directory and closes the instance after the rule; an implementation that stores metadata keeps it
     * there, or derives its location from it, so that rules never see each other's metadata. The
     * {@link RemoteLogMetadataManagerCapability#DURABLE} rule calls this a second time with the same directory,
     * after closing the first instance.
     *
     * @param scratch an empty directory that belongs to this rule
     * @return a configured instance, never {@code null}
     * @throws Exception if the instance cannot be created; the rule then fails
     */
    protected abstract RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) throws Exception;

    /**
     * The optional behaviours the implementation has; by default
     * {@link RemoteLogMetadataManagerCapability#defaults()}. Rules for a declared capability check that it works;
     * rules for one left out check what the SPI does instead.
     */
    protected Set<RemoteLogMetadataManagerCapability> capabilities() {
        return RemoteLogMetadataManagerCapability.defaults();
    }

    /**
     * How many partitions the concurrency rule writes at once, each from its own thread, while as many threads
     * read them all; 8 by default, from 2 to 128.
     */
    protected int concurrency() {
        return 8;
    }

    /**
     * How long a write's future, a partition's readiness or the concurrency rule may take before the rule reports
     * a hang; 1 minute by default.
     */
    protected Duration operationTimeout() {
        return Duration.ofMinutes(1);
    }

    /** Creates the implementation for a rule. */
    @BeforeEach
    public final void createImplementation(@TempDir Path ruleDirectory) throws Exception {
        scratch = ruleDirectory;
        script = new MetadataScript(create(), operationTimeout());
    }

    /** Closes the implementation after a rule. */
    @AfterEach
    public final void closeImplementation() throws IOException {
        if (script != null) {
            script.rlmm().close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // The knobs and partitions

    @Test
    public final void required_validate_concurrency() {
        assertTrue(
                concurrency() >= 2 && concurrency() <= 128,
                "concurrency() must be from 2 to 128, not " + concurrency());
    }

    @Test
    public final void required_validate_operationTimeout() {
        assertTrue(
                operationTimeout() != null && operationTimeout().isPositive(),
                "operationTimeout() must be positive, not " + operationTimeout());
    }

    @Test
    public final void required_announcedPartitionIsReadyAndEmpty() throws Exception {
        TopicIdPartition tp = script.newPartition();
        assertAll(script.listIs(tp), script.listForEpochIs(tp, 0), script.lookupIs(tp, 0, 0, null));
    }

    @Test
    public final void required_listingOfUnknownPartitionIsNotFound() {
        TopicIdPartition tp = script.unknownPartition();
        assertAll(
                () -> assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> script.list(tp),
                        "listRemoteLogSegments of a partition never announced"),
                () -> assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> script.list(tp, 0),
                        "listRemoteLogSegments(epoch 0) of a partition never announced"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Segment states

    @Test
    public final void required_addRequiresCopySegmentStarted() throws Exception {
        TopicIdPartition tp = script.newPartition();
        List<Executable> checks = new ArrayList<>();
        for (RemoteLogSegmentState state :
                List.of(COPY_SEGMENT_FINISHED, DELETE_SEGMENT_STARTED, DELETE_SEGMENT_FINISHED)) {
            RemoteLogSegmentMetadata started = segment(tp).build();
            RemoteLogSegmentMetadata added = new RemoteLogSegmentMetadata(
                    started.remoteLogSegmentId(),
                    started.startOffset(),
                    started.endOffset(),
                    started.maxTimestampMs(),
                    started.brokerId(),
                    started.eventTimestampMs(),
                    started.segmentSizeInBytes(),
                    Optional.empty(),
                    state,
                    started.segmentLeaderEpochs(),
                    started.txnIdxEmpty());
            checks.add(() -> refused(
                    "adding a segment in " + state,
                    IllegalArgumentException.class,
                    () -> script.rlmm().addRemoteLogSegmentMetadata(added)));
        }
        checks.add(script.listIs(tp));
        assertAll(checks);
    }

    @Test
    public final void required_updateOfUnknownSegmentIsNotFound() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata neverAdded = segment(tp).build();
        List<Executable> checks = new ArrayList<>();
        for (RemoteLogSegmentState state : List.of(COPY_SEGMENT_FINISHED, DELETE_SEGMENT_STARTED)) {
            checks.add(() -> refused(
                    "moving a segment never added to " + state,
                    RemoteResourceNotFoundException.class,
                    () -> script.rlmm().updateRemoteLogSegmentMetadata(SegmentBuilder.update(neverAdded, state))));
        }
        checks.add(script.listIs(tp));
        assertAll(checks);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "COPY_SEGMENT_STARTED,   COPY_SEGMENT_STARTED",
        "COPY_SEGMENT_STARTED,   COPY_SEGMENT_FINISHED",
        "COPY_SEGMENT_STARTED,   DELETE_SEGMENT_STARTED",
        "COPY_SEGMENT_FINISHED,  COPY_SEGMENT_FINISHED",
        "COPY_SEGMENT_FINISHED,  DELETE_SEGMENT_STARTED",
        "DELETE_SEGMENT_STARTED, DELETE_SEGMENT_STARTED",
        "DELETE_SEGMENT_STARTED, DELETE_SEGMENT_FINISHED"
    })
    public final void required_legalSegmentTransitionIsAccepted(
            RemoteLogSegmentState source, RemoteLogSegmentState target) throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata current = script.inState(source, segment(tp));
        RemoteLogSegmentMetadata expected =
                target == COPY_SEGMENT_STARTED ? script.add(current) : script.advance(current, target);
        assertAll(target == DELETE_SEGMENT_FINISHED ? script.listIs(tp) : script.listIs(tp, expected));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "COPY_SEGMENT_STARTED,   DELETE_SEGMENT_FINISHED",
        "COPY_SEGMENT_FINISHED,  COPY_SEGMENT_STARTED",
        "COPY_SEGMENT_FINISHED,  DELETE_SEGMENT_FINISHED",
        "DELETE_SEGMENT_STARTED, COPY_SEGMENT_STARTED",
        "DELETE_SEGMENT_STARTED, COPY_SEGMENT_FINISHED"
    })
    public final void required_illegalSegmentTransitionIsRefused(
            RemoteLogSegmentState source, RemoteLogSegmentState target) throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata started = segment(tp).build();
        RemoteLogSegmentMetadata current = script.inState(source, started);
        refused(
                source + " -> " + target,
                InvalidStateTransitionException.class,
                target == COPY_SEGMENT_STARTED
                        ? () -> script.rlmm().addRemoteLogSegmentMetadata(started)
                        : () -> script.rlmm().updateRemoteLogSegmentMetadata(SegmentBuilder.update(current, target)));
        assertAll(script.listIs(tp, current));
    }

    @Test
    public final void required_deleteSegmentFinishedIsFinal() throws Exception {
        // Kafka forgets a segment once its deletion finishes, so an update after it may also be "not found".
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata gone =
                script.inState(DELETE_SEGMENT_FINISHED, segment(tp).offsets(0, 99));
        List<Executable> checks = new ArrayList<>();
        for (RemoteLogSegmentState target : List.of(COPY_SEGMENT_FINISHED, DELETE_SEGMENT_STARTED)) {
            checks.add(() -> refused(
                    DELETE_SEGMENT_FINISHED + " -> " + target,
                    List.of(InvalidStateTransitionException.class, RemoteResourceNotFoundException.class),
                    () -> script.rlmm().updateRemoteLogSegmentMetadata(SegmentBuilder.update(gone, target))));
        }
        checks.add(script.listIs(tp));
        checks.add(script.lookupIs(tp, 0, 50, null));
        assertAll(checks);
    }

    // ---------------------------------------------------------------------------------------------------------
    // What each state shows

    @Test
    public final void required_copyStartedSegmentIsListedButNotReadable() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s =
                script.add(segment(tp).offsets(0, 50).epoch(0, 0).withAbortedTransactions());
        assertAll(
                script.lookupIs(tp, 0, 0, null),
                script.lookupIs(tp, 0, 50, null),
                script.highestOffsetIs(tp, 0, null),
                script.nextWithTxnIndexIs(tp, 0, 0, null),
                script.listIs(tp, s),
                script.listForEpochIs(tp, 0, s));
    }

    @Test
    public final void required_copyFinishedSegmentIsReadable() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s = script.copied(segment(tp).offsets(101, 200).epoch(0, 101));
        assertAll(
                script.lookupIs(tp, 0, 101, s),
                script.lookupIs(tp, 0, 150, s),
                script.lookupIs(tp, 0, 200, s),
                script.lookupIs(tp, 0, 100, null),
                script.lookupIs(tp, 0, 201, null),
                script.lookupIs(tp, 1, 150, null),
                script.highestOffsetIs(tp, 0, 200L),
                script.listIs(tp, s),
                script.listForEpochIs(tp, 0, s));
    }

    @Test
    public final void required_deleteStartedSegmentIsListedButNotReadable() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata deleting = script.inState(
                DELETE_SEGMENT_STARTED, segment(tp).offsets(201, 300).epoch(0, 201));
        // A copy that failed goes from started straight to deletion.
        RemoteLogSegmentMetadata abandoned =
                script.advance(script.add(segment(tp).offsets(301, 400).epoch(0, 301)), DELETE_SEGMENT_STARTED);
        assertAll(
                script.lookupIs(tp, 0, 250, null),
                script.lookupIs(tp, 0, 350, null),
                script.listIs(tp, deleting, abandoned),
                script.listForEpochIs(tp, 0, deleting, abandoned));
    }

    @Test
    public final void required_deleteFinishedSegmentIsGone() throws Exception {
        TopicIdPartition tp = script.newPartition();
        script.inState(DELETE_SEGMENT_FINISHED, segment(tp).offsets(301, 400).epoch(0, 301));
        assertAll(
                script.lookupIs(tp, 0, 350, null),
                script.listIs(tp),
                script.listForEpochIs(tp, 0),
                () -> assertEquals(0, script.rlmm().remoteLogSize(tp, 0), "remoteLogSize(epoch 0)"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Leader epochs

    @Test
    public final void required_lookupFollowsLeaderEpochsAcrossSegments() throws Exception {
        // The segments of Kafka's RemoteLogSegmentLifecycleTest: leadership moves from epoch 0 to 4, within
        // segments and across them, and the last segment overlaps the one before.
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s0 = script.copied(
                segment(tp).offsets(0, 100).epoch(0, 0).epoch(1, 20).epoch(2, 80));
        RemoteLogSegmentMetadata s1 =
                script.copied(segment(tp).offsets(101, 200).epoch(2, 101));
        RemoteLogSegmentMetadata s2 =
                script.copied(segment(tp).offsets(201, 300).epoch(2, 201).epoch(3, 240));
        RemoteLogSegmentMetadata s3 =
                script.copied(segment(tp).offsets(250, 400).epoch(3, 250).epoch(4, 370));
        assertAll(
                script.lookupIs(tp, 0, 0, s0),
                script.lookupIs(tp, 1, 40, s0),
                script.lookupIs(tp, 2, 80, s0),
                script.lookupIs(tp, 2, 110, s1),
                script.lookupIs(tp, 2, 239, s2),
                script.lookupIs(tp, 3, 240, s2),
                script.lookupIs(tp, 3, 250, s3),
                script.lookupIs(tp, 3, 300, s3),
                script.lookupIs(tp, 4, 375, s3),
                script.lookupIs(tp, 1, 110, null),
                script.lookupIs(tp, 3, 239, null),
                script.lookupIs(tp, 4, 401, null),
                script.lookupIs(tp, 5, 301, null));
    }

    @Test
    public final void required_lookupBeyondTheEpochEndInsideASegmentIsEmpty() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s = script.copied(
                segment(tp).offsets(0, 100).epoch(0, 0).epoch(1, 20).epoch(2, 80));
        assertAll(
                script.lookupIs(tp, 0, 19, s),
                script.lookupIs(tp, 0, 20, null),
                script.lookupIs(tp, 0, 50, null),
                script.lookupIs(tp, 1, 79, s),
                script.lookupIs(tp, 1, 80, null),
                script.lookupIs(tp, 2, 100, s),
                script.lookupIs(tp, 2, 101, null));
    }

    @Test
    public final void required_highestOffsetForEpochIsTheEpochsLastCopiedOffset() throws Exception {
        TopicIdPartition tp = script.newPartition();
        script.copied(segment(tp).offsets(0, 100).epoch(0, 0).epoch(1, 20).epoch(2, 80));
        script.copied(segment(tp).offsets(101, 200).epoch(2, 101));
        script.copied(segment(tp).offsets(201, 300).epoch(2, 201).epoch(3, 240));
        script.copied(segment(tp).offsets(250, 400).epoch(3, 250).epoch(4, 370));
        script.add(segment(tp).offsets(401, 500).epoch(4, 401).epoch(5, 450));
        assertAll(
                script.highestOffsetIs(tp, 0, 19L),
                script.highestOffsetIs(tp, 1, 79L),
                script.highestOffsetIs(tp, 2, 239L),
                script.highestOffsetIs(tp, 3, 369L),
                script.highestOffsetIs(tp, 4, 400L),
                script.highestOffsetIs(tp, 5, null),
                script.highestOffsetIs(tp, 6, null));
    }

    @Test
    public final void required_highestOffsetForEpochOutlivesDeletionOfItsSegments() throws Exception {
        // The broker resumes copying after this offset; forgetting it on deletion would copy data again.
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s0 = script.copied(
                segment(tp).offsets(0, 100).epoch(0, 0).epoch(1, 20).epoch(2, 80));
        script.copied(segment(tp).offsets(101, 200).epoch(2, 101));
        script.advance(script.advance(s0, DELETE_SEGMENT_STARTED), DELETE_SEGMENT_FINISHED);
        assertAll(
                script.lookupIs(tp, 0, 10, null),
                script.lookupIs(tp, 1, 40, null),
                script.highestOffsetIs(tp, 0, 19L),
                script.highestOffsetIs(tp, 1, 79L),
                script.highestOffsetIs(tp, 2, 200L));
    }

    @Test
    public final void required_laterCopyOfTheSameOffsetsReplacesTheEarlierForLookups() throws Exception {
        // After a leader change the new leader may copy again what the old one copied, as one larger segment.
        TopicIdPartition duplicate = script.newPartition();
        RemoteLogSegmentMetadata small = script.copied(segment(duplicate).offsets(0, 100));
        RemoteLogSegmentMetadata large = script.copied(segment(duplicate).offsets(0, 200));
        TopicIdPartition overlap = script.newPartition();
        script.copied(segment(overlap).offsets(10, 90).epoch(0, 10));
        RemoteLogSegmentMetadata wider =
                script.copied(segment(overlap).offsets(5, 100).epoch(0, 5));
        RemoteLogSegmentMetadata next =
                script.copied(segment(overlap).offsets(101, 200).epoch(0, 101));
        assertAll(
                script.lookupIs(duplicate, 0, 50, large),
                script.lookupIs(duplicate, 0, 150, large),
                script.listIs(duplicate, small, large),
                script.lookupIs(overlap, 0, 50, wider),
                script.lookupIs(overlap, 0, 95, wider),
                script.lookupIs(overlap, 0, 150, next));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Listings and sizes

    @Test
    public final void required_listingByEpochIsSortedByStartOffset() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s2 =
                script.copied(segment(tp).offsets(201, 400).epoch(0, 201).epoch(1, 301));
        RemoteLogSegmentMetadata s0 = script.copied(segment(tp).offsets(0, 100).epoch(0, 0));
        RemoteLogSegmentMetadata s1 =
                script.copied(segment(tp).offsets(101, 200).epoch(0, 101));
        assertAll(
                script.listForEpochIs(tp, 0, s0, s1, s2),
                script.listForEpochIs(tp, 1, s2),
                script.listForEpochIs(tp, 2),
                script.listIs(tp, s0, s1, s2));
    }

    @Test
    public final void required_listingHoldsEveryStateButDeleteFinished() throws Exception {
        TopicIdPartition tp = script.newPartition();
        script.inState(DELETE_SEGMENT_FINISHED, segment(tp).offsets(200, 299));
        RemoteLogSegmentMetadata started =
                script.inState(COPY_SEGMENT_STARTED, segment(tp).offsets(300, 399));
        RemoteLogSegmentMetadata deleting =
                script.inState(DELETE_SEGMENT_STARTED, segment(tp).offsets(100, 199));
        RemoteLogSegmentMetadata finished =
                script.inState(COPY_SEGMENT_FINISHED, segment(tp).offsets(0, 99));
        assertAll(
                script.listIs(tp, started, deleting, finished),
                script.listForEpochIs(tp, 0, finished, deleting, started));
    }

    @Test
    public final void required_remoteLogSizeSumsTheSegmentsListedForTheEpoch() throws Exception {
        // As Kafka's: every segment listed for the epoch counts, whatever its state short of deleted.
        TopicIdPartition tp = script.newPartition();
        script.inState(COPY_SEGMENT_STARTED, segment(tp).offsets(0, 99).size(1_000));
        script.inState(COPY_SEGMENT_FINISHED, segment(tp).offsets(100, 199).size(2_000));
        script.inState(DELETE_SEGMENT_STARTED, segment(tp).offsets(200, 299).size(4_000));
        script.inState(DELETE_SEGMENT_FINISHED, segment(tp).offsets(300, 399).size(8_000));
        script.copied(segment(tp).offsets(400, 499).epoch(0, 400).epoch(1, 450).size(32_000));
        script.copied(segment(tp).offsets(500, 599).epoch(1, 500).size(16_000));
        assertAll(
                () -> assertEquals(39_000, script.rlmm().remoteLogSize(tp, 0), "remoteLogSize(epoch 0)"),
                () -> assertEquals(48_000, script.rlmm().remoteLogSize(tp, 1), "remoteLogSize(epoch 1)"),
                () -> assertEquals(0, script.rlmm().remoteLogSize(tp, 2), "remoteLogSize(epoch 2)"));
    }

    @Test
    public final void required_customMetadataAndEveryFieldRoundTrip() throws Exception {
        TopicIdPartition tp = script.newPartition();
        byte[] bytes = new byte[128];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 2 - 1);
        }
        Optional<CustomMetadata> custom = Optional.of(new CustomMetadata(bytes));
        RemoteLogSegmentMetadata started =
                script.add(segment(tp).offsets(0, 99).size(123_456).withAbortedTransactions());
        RemoteLogSegmentMetadata finished = script.advance(
                started,
                new RemoteLogSegmentMetadataUpdate(
                        started.remoteLogSegmentId(),
                        started.eventTimestampMs() + 7,
                        custom,
                        COPY_SEGMENT_FINISHED,
                        5));
        assertAll(
                script.lookupIs(tp, 0, 0, finished),
                script.listIs(tp, finished),
                () -> assertEquals(custom, script.lookup(tp, 0, 0).orElseThrow().customMetadata(), "custom metadata"));
        RemoteLogSegmentMetadata deleting = script.advance(finished, DELETE_SEGMENT_STARTED);
        assertAll(script.listIs(tp, deleting));
    }

    @Test
    public final void required_partitionsAreKeptApart() throws Exception {
        TopicIdPartition tp = script.newPartition();
        TopicIdPartition recreated = new TopicIdPartition(Uuid.randomUuid(), tp.topicPartition());
        TopicIdPartition neighbour = script.newPartition();
        script.lead(recreated);
        RemoteLogSegmentMetadata mine = script.copied(segment(tp).offsets(0, 99));
        RemoteLogSegmentMetadata theirs = script.copied(segment(recreated).offsets(0, 99));
        RemoteLogSegmentMetadata next = script.copied(segment(neighbour).offsets(0, 99));
        script.advance(mine, DELETE_SEGMENT_STARTED);
        assertAll(
                script.lookupIs(tp, 0, 50, null),
                script.lookupIs(recreated, 0, 50, theirs),
                script.lookupIs(neighbour, 0, 50, next),
                script.listIs(recreated, theirs),
                script.listIs(neighbour, next));
    }

    @Test
    public final void required_leadershipChangeKeepsMetadata() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s = script.copied(segment(tp).offsets(0, 99));
        script.follow(tp);
        assertAll(script.lookupIs(tp, 0, 50, s), script.listIs(tp, s));
        script.lead(tp);
        assertAll(script.lookupIs(tp, 0, 50, s), script.listIs(tp, s));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Transaction indexes (KIP-1058)

    @Test
    public final void optional_nextSegmentWithTxnIndexSkipsSegmentsWithoutAbortedTransactions() throws Exception {
        Verdicts.requireCapability(has(NEXT_SEGMENT_WITH_TXN_INDEX), NEXT_SEGMENT_WITH_TXN_INDEX);
        TopicIdPartition tp = script.newPartition();
        script.copied(segment(tp).offsets(0, 99));
        RemoteLogSegmentMetadata clean = script.copied(segment(tp).offsets(100, 199));
        RemoteLogSegmentMetadata aborted =
                script.copied(segment(tp).offsets(200, 299).withAbortedTransactions());
        RemoteLogSegmentMetadata later =
                script.copied(segment(tp).offsets(300, 399).withAbortedTransactions());
        script.add(segment(tp).offsets(400, 499).withAbortedTransactions());
        assertAll(
                script.nextWithTxnIndexIs(tp, 0, 50, aborted),
                script.nextWithTxnIndexIs(tp, 0, 150, aborted),
                script.nextWithTxnIndexIs(tp, 0, 250, aborted),
                script.nextWithTxnIndexIs(tp, 0, 350, later),
                script.nextWithTxnIndexIs(tp, 0, 450, null),
                script.nextWithTxnIndexIs(tp, 1, 50, null));
        // The walk goes from segment to adjacent segment: a segment being deleted is a gap it does not cross.
        script.advance(clean, DELETE_SEGMENT_STARTED);
        assertAll(script.nextWithTxnIndexIs(tp, 0, 50, null), script.nextWithTxnIndexIs(tp, 0, 250, aborted));
    }

    @Test
    public final void required_withoutTxnIndexSkippingNextSegmentIsTheContainingSegment() throws Exception {
        Verdicts.requireNoCapability(has(NEXT_SEGMENT_WITH_TXN_INDEX), NEXT_SEGMENT_WITH_TXN_INDEX);
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata clean = script.copied(segment(tp).offsets(0, 99));
        RemoteLogSegmentMetadata aborted =
                script.copied(segment(tp).offsets(100, 199).withAbortedTransactions());
        assertAll(
                script.nextWithTxnIndexIs(tp, 0, 50, clean),
                script.nextWithTxnIndexIs(tp, 0, 150, aborted),
                script.nextWithTxnIndexIs(tp, 0, 250, null));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Partition deletion

    @Test
    public final void required_partitionDeletionStepsAreAcceptedInOrder() throws Exception {
        // Kafka keeps serving a partition's segments until its deletion finishes.
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s = script.copied(segment(tp).offsets(0, 99));
        for (RemotePartitionDeleteState state : List.of(
                DELETE_PARTITION_MARKED, DELETE_PARTITION_MARKED, DELETE_PARTITION_STARTED, DELETE_PARTITION_STARTED)) {
            script.deletePartition(tp, state);
            assertAll(script.lookupIs(tp, 0, 50, s), script.listIs(tp, s));
        }
        script.deletePartition(tp, DELETE_PARTITION_FINISHED);
    }

    @ParameterizedTest(name = "{1} after {0}")
    @CsvSource({
        "'',                                                DELETE_PARTITION_STARTED",
        "'',                                                DELETE_PARTITION_FINISHED",
        "DELETE_PARTITION_MARKED,                           DELETE_PARTITION_FINISHED",
        "DELETE_PARTITION_MARKED DELETE_PARTITION_STARTED,  DELETE_PARTITION_MARKED"
    })
    public final void required_illegalPartitionDeletionStepIsRefused(String before, RemotePartitionDeleteState step)
            throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata s = script.copied(segment(tp).offsets(0, 99));
        for (String state : before.split(" ")) {
            if (!state.isBlank()) {
                script.deletePartition(tp, RemotePartitionDeleteState.valueOf(state));
            }
        }
        refused(
                step + " after [" + before + "]",
                InvalidStateTransitionException.class,
                () -> script.rlmm().putRemotePartitionDeleteMetadata(MetadataScript.deletion(tp, step)));
        assertAll(script.lookupIs(tp, 0, 50, s), script.listIs(tp, s));
    }

    @Test
    public final void required_partitionMetadataIsGoneAfterDeletionFinished() throws Exception {
        TopicIdPartition tp = script.newPartition();
        TopicIdPartition other = script.newPartition();
        script.copied(segment(tp).offsets(0, 99));
        RemoteLogSegmentMetadata kept = script.copied(segment(other).offsets(0, 99));
        for (RemotePartitionDeleteState state : RemotePartitionDeleteState.values()) {
            script.deletePartition(tp, state);
        }
        assertAll(
                () -> assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> script.list(tp),
                        "listRemoteLogSegments of a deleted partition"),
                () -> assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> script.list(tp, 0),
                        "listRemoteLogSegments(epoch 0) of a deleted partition"),
                () -> {
                    Optional<RemoteLogSegmentMetadata> found;
                    try {
                        found = script.lookup(tp, 0, 50);
                    } catch (RemoteResourceNotFoundException e) {
                        found = Optional.empty(); // Kafka's answer; finding nothing is as good
                    }
                    assertEquals(Optional.empty(), found, "a lookup in a deleted partition");
                },
                script.lookupIs(other, 0, 50, kept),
                script.listIs(other, kept));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lifetime and concurrency

    @Test
    public final void optional_metadataSurvivesRestart() throws Exception {
        Verdicts.requireCapability(has(DURABLE), DURABLE);
        TopicIdPartition tp = script.newPartition();
        TopicIdPartition marked = script.newPartition();
        RemoteLogSegmentMetadata started = script.add(segment(tp).offsets(200, 299));
        RemoteLogSegmentMetadata deleting =
                script.inState(DELETE_SEGMENT_STARTED, segment(tp).offsets(100, 199));
        RemoteLogSegmentMetadata copying =
                script.add(segment(tp).offsets(0, 99).epoch(0, 0).epoch(1, 50).withAbortedTransactions());
        RemoteLogSegmentMetadata finished = script.advance(
                copying,
                new RemoteLogSegmentMetadataUpdate(
                        copying.remoteLogSegmentId(),
                        copying.eventTimestampMs() + 1,
                        Optional.of(new CustomMetadata(new byte[] {1, 2, 3})),
                        COPY_SEGMENT_FINISHED,
                        7));
        RemoteLogSegmentMetadata other = script.copied(segment(marked).offsets(0, 99));
        script.deletePartition(marked, DELETE_PARTITION_MARKED);
        script.rlmm().close();
        script = null;
        script = new MetadataScript(create(), operationTimeout());
        script.lead(tp, marked);
        assertAll(
                script.listIs(tp, started, deleting, finished),
                script.lookupIs(tp, 1, 60, finished),
                script.highestOffsetIs(tp, 0, 199L),
                script.highestOffsetIs(tp, 1, 99L),
                script.lookupIs(marked, 0, 50, other));
        // The states survived too: legal steps go on from them, illegal ones are still refused.
        RemoteLogSegmentMetadata resumed = script.advance(started, COPY_SEGMENT_FINISHED);
        refused(
                "DELETE_SEGMENT_STARTED -> COPY_SEGMENT_FINISHED after a restart",
                InvalidStateTransitionException.class,
                () -> script.rlmm()
                        .updateRemoteLogSegmentMetadata(SegmentBuilder.update(deleting, COPY_SEGMENT_FINISHED)));
        script.deletePartition(marked, DELETE_PARTITION_STARTED);
        assertAll(script.lookupIs(tp, 0, 250, resumed), script.lookupIs(marked, 0, 50, other));
    }

    @Test
    public final void required_concurrentWritesAndReadsAcrossPartitions() throws Exception {
        int writers = concurrency();
        List<TopicIdPartition> partitions = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            partitions.add(script.newPartition());
        }
        List<List<RemoteLogSegmentMetadata>> expected = new ArrayList<>();
        List<Concurrently.Task> tasks = new ArrayList<>();
        for (TopicIdPartition tp : partitions) {
            List<RemoteLogSegmentMetadata> live = new ArrayList<>();
            expected.add(live);
            tasks.add(() -> ConcurrentHistory.write(script, tp, live));
            tasks.add(() -> ConcurrentHistory.read(script, partitions));
        }
        Concurrently.run(tasks, tasks.size(), operationTimeout());
        List<Executable> checks = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            ConcurrentHistory.expectFinalState(script, partitions.get(i), expected.get(i), checks);
        }
        assertAll(checks);
    }

    @Test
    public final void required_callsAfterCloseFailAndDoNothing() throws Exception {
        TopicIdPartition tp = script.newPartition();
        RemoteLogSegmentMetadata kept = script.copied(segment(tp).offsets(0, 99));
        RemoteLogSegmentMetadata late = segment(tp).offsets(100, 199).build();
        RemoteLogMetadataManager closed = script.rlmm();
        Bounded.run("close()", operationTimeout(), closed::close);
        Bounded.run("a second close() (close is idempotent)", operationTimeout(), closed::close);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> refused(
                "addRemoteLogSegmentMetadata after close()",
                IllegalStateException.class,
                () -> closed.addRemoteLogSegmentMetadata(late)));
        checks.add(() -> refused(
                "updateRemoteLogSegmentMetadata after close()",
                IllegalStateException.class,
                () -> closed.updateRemoteLogSegmentMetadata(SegmentBuilder.update(kept, DELETE_SEGMENT_STARTED))));
        checks.add(() -> refused(
                "putRemotePartitionDeleteMetadata after close()",
                IllegalStateException.class,
                () -> closed.putRemotePartitionDeleteMetadata(MetadataScript.deletion(tp, DELETE_PARTITION_MARKED))));
        checks.add(
                () -> AfterClose.refused("remoteLogSegmentMetadata", () -> closed.remoteLogSegmentMetadata(tp, 0, 50)));
        checks.add(() -> AfterClose.refused("highestOffsetForEpoch", () -> closed.highestOffsetForEpoch(tp, 0)));
        checks.add(() -> AfterClose.refused("listRemoteLogSegments", () -> closed.listRemoteLogSegments(tp)));
        checks.add(
                () -> AfterClose.refused("listRemoteLogSegments(epoch 0)", () -> closed.listRemoteLogSegments(tp, 0)));
        checks.add(() -> AfterClose.refused("remoteLogSize", () -> closed.remoteLogSize(tp, 0)));
        checks.add(() -> AfterClose.refused("nextSegmentWithTxnIndex", () -> closed.nextSegmentWithTxnIndex(tp, 0, 0)));
        checks.add(() -> AfterClose.refused("onPartitionLeadershipChanges", () -> {
            closed.onPartitionLeadershipChanges(Set.of(tp), Set.of());
            return null;
        }));
        checks.add(() -> AfterClose.refused("onStopPartitions", () -> {
            closed.onStopPartitions(Set.of(tp));
            return null;
        }));
        assertAll(checks);
        if (has(DURABLE)) {
            script = new MetadataScript(create(), operationTimeout());
            script.lead(tp);
            assertAll(script.listIs(tp, kept), script.highestOffsetIs(tp, 0, 99L));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers

    private RemoteLogMetadataManager create() throws Exception {
        RemoteLogMetadataManager created = createRemoteLogMetadataManager(scratch);
        assertNotNull(created, "createRemoteLogMetadataManager returned null");
        return created;
    }

    private boolean has(RemoteLogMetadataManagerCapability capability) {
        Set<RemoteLogMetadataManagerCapability> declared = capabilities();
        assertNotNull(declared, "capabilities() returned null");
        return declared.contains(capability);
    }

    private void refused(String what, Class<? extends Throwable> type, Calls.Write write) {
        refused(what, List.of(type), write);
    }

    private void refused(String what, List<Class<? extends Throwable>> types, Calls.Write write) {
        Calls.refused(what, script.timeout(), types, write);
    }
}
