package io.krabka.testkit;

import static io.krabka.testkit.ByteAssertions.assertSameBytes;
import static io.krabka.testkit.ByteAssertions.readAll;
import static io.krabka.testkit.RemoteStorageManagerCapability.CUSTOM_METADATA;
import static io.krabka.testkit.RemoteStorageManagerCapability.DELETE;
import static io.krabka.testkit.RemoteStorageManagerCapability.DURABLE;
import static io.krabka.testkit.SegmentBuilder.segment;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance kit for {@link RemoteStorageManager} implementations: the rules of Krabka's remote storage SPI
 * (and of Kafka's KIP-405 {@code RemoteStorageManager}, which it mirrors) as JUnit 5 tests that run against any
 * implementation.
 *
 * <p>Subclass it in a test of the plugin, implement {@link #createRemoteStorageManager(Path)}, declare the optional
 * behaviours in {@link #capabilities()} and run the subclass as any test class:
 * {@snippet :
 * class LocalRemoteStorageManagerConformanceTest extends RemoteStorageManagerConformance {
 *     @Override
 *     protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
 *         LocalRemoteStorageManager rsm = new LocalRemoteStorageManager();
 *         rsm.configure(Map.of("dir", scratch.toString()));
 *         return rsm;
 *     }
 * }
 * }
 *
 * <p>Every rule is one test method. {@code required_…} rules hold for every implementation; {@code optional_…}
 * rules hold for implementations that declare the capability they check; {@code required_validate_…} rules check
 * this class's knobs as the subclass set them. A rule that does not apply to the implementation ends aborted with a
 * message starting {@code NOT APPLICABLE:}; a rule that the kit cannot check in this setting ends aborted with a
 * message starting {@code NOT VERIFIED:} that says what to change. Neither is a pass. Rules are {@code final}, so
 * that every implementation answers to the same rules.
 *
 * <p>Besides copies and fetches, the rules check the lifecycle the SPI asks for: calls after {@code close()}
 * ({@code required_callsAfterCloseFailAndDoNothing}), streams left open at {@code close()}
 * ({@code required_closeReturnsWithStreamsLeftOpenWhichThenEndOrFail}), streams closed before their end
 * ({@code required_streamsClosedBeforeTheirEndReleaseWhatTheyHold}), interrupted calls
 * ({@code required_interruptedCallsCompleteOrFailAndLeaveTheInstanceWorking}), copies failing part-way
 * ({@code required_copyFailingPartWayLeavesNothingFetchable}) and custom metadata the implementation did not write
 * ({@code required_customMetadataTheImplementationDidNotWriteIsRefusedOrIgnored}). Each wait is bounded by
 * {@link #operationTimeout()}, so a hang fails the rule.
 */
public abstract class RemoteStorageManagerConformance {

    private static final int MIB = 1 << 20;
    private static final int SEGMENT_BYTES = 100_003;
    /** More streams than a connection pool typically holds (the AWS SDK's default is 50). */
    private static final int PARTLY_READ_STREAMS = 200;

    private final TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "kit.remote_storage-1", 0);
    private final Map<RemoteLogSegmentId, Optional<CustomMetadata>> customMetadata = new ConcurrentHashMap<>();
    private Path scratch;
    private Path localFiles;
    private RemoteStorageManager rsm;

    /** For subclasses. */
    protected RemoteStorageManagerConformance() {}

    /**
     * Creates the implementation under test, configured and ready. The kit calls this before every rule with a
     * new, empty directory and closes the instance after the rule. An implementation keeps its remote data in the
     * directory or, if it stores elsewhere (an object store), derives its location from it (a key prefix from the
     * directory's name, say), so that rules never see each other's segments. The {@link
     * RemoteStorageManagerCapability#DURABLE} rule calls this a second time with the same directory, after closing
     * the first instance; the second instance must read what the first stored.
     *
     * @param scratch an empty directory that belongs to this rule
     * @return a configured instance, never {@code null}
     * @throws Exception if the instance cannot be created; the rule then fails
     */
    protected abstract RemoteStorageManager createRemoteStorageManager(Path scratch) throws Exception;

    /**
     * The optional behaviours the implementation has; by default {@link RemoteStorageManagerCapability#defaults()}.
     * Rules for a declared capability check that it works; rules for one left out check what the SPI asks
     * instead, where it asks something.
     */
    protected Set<RemoteStorageManagerCapability> capabilities() {
        return RemoteStorageManagerCapability.defaults();
    }

    /**
     * The size in bytes of the segment that checks the implementation streams rather than buffers; 384 MiB by
     * default, at least 1 MiB. The rule reports {@code NOT VERIFIED} unless the size exceeds the maximum heap
     * ({@code Runtime.maxMemory()}), so run the kit with an {@code -Xmx} below it, e.g. {@code -Xmx256m}.
     */
    protected int largeSegmentBytes() {
        return 384 * MIB;
    }

    /**
     * The largest custom metadata a copy may return, in bytes; the broker's
     * {@code remote.log.metadata.custom.metadata.max.bytes}, 128 by default as in Kafka. At least 1.
     */
    protected int customMetadataMaxBytes() {
        return 128;
    }

    /** How many threads the concurrency rule runs; 8 by default, from 2 to 256. */
    protected int concurrency() {
        return 8;
    }

    /**
     * How long the concurrency rule waits for its tasks, and the lifecycle rules for a call ({@code close()}, a
     * read of a stream left open, a series of fetches), before they report a hang; 2 minutes by default.
     */
    protected Duration operationTimeout() {
        return Duration.ofMinutes(2);
    }

    /** Creates the implementation for a rule. */
    @BeforeEach
    public final void createImplementation(@TempDir Path ruleDirectory) throws Exception {
        scratch = Files.createDirectory(ruleDirectory.resolve("remote"));
        localFiles = Files.createDirectory(ruleDirectory.resolve("local"));
        rsm = create();
    }

    /** Closes the implementation after a rule. */
    @AfterEach
    public final void closeImplementation() throws IOException {
        if (rsm != null) {
            rsm.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // The knobs

    @Test
    public final void required_validate_largeSegmentBytes() {
        assertTrue(
                largeSegmentBytes() >= MIB,
                "largeSegmentBytes() must be at least 1 MiB to exercise streaming, not " + largeSegmentBytes());
    }

    @Test
    public final void required_validate_customMetadataMaxBytes() {
        assertTrue(
                customMetadataMaxBytes() >= 1,
                "customMetadataMaxBytes() must be at least 1, not " + customMetadataMaxBytes());
    }

    @Test
    public final void required_validate_concurrency() {
        assertTrue(
                concurrency() >= 2 && concurrency() <= 256,
                "concurrency() must be from 2 to 256, not " + concurrency());
    }

    @Test
    public final void required_validate_operationTimeout() {
        assertTrue(
                operationTimeout() != null && operationTimeout().isPositive(),
                "operationTimeout() must be positive, not " + operationTimeout());
    }

    // ---------------------------------------------------------------------------------------------------------
    // Copy and fetch

    @Test
    public final void required_fetchWholeSegmentReturnsTheCopiedBytes() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        assertAll(
                () -> assertSameBytes(s.log(), fetch(s, 0), "fetchLogSegment(0)"),
                () -> assertSameBytes(s.log(), fetch(s, 0, s.size() - 1), "fetchLogSegment(0, size - 1)"));
    }

    @Test
    public final void required_fetchFromPositionReadsToTheEnd() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        int size = s.size();
        assertAll(fetches(s, new int[][] {{1}, {size / 2}, {size - 1}}));
    }

    @Test
    public final void required_fetchRangeIncludesBothEnds() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        int size = s.size();
        assertAll(fetches(s, new int[][] {
            {0, 0}, {0, 1}, {7, 4096}, {size / 3, 2 * size / 3}, {size - 2, size - 1}, {size - 1, size - 1}
        }));
    }

    @Test
    public final void required_fetchRangeEndIsClampedToTheSegmentEnd() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        int size = s.size();
        assertAll(fetches(s, new int[][] {
            {0, size}, {size - 10, size + 10}, {size / 2, Integer.MAX_VALUE}, {size - 1, Integer.MAX_VALUE}
        }));
    }

    @Test
    public final void required_fetchStartingAtTheSegmentSizeIsEmpty() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        int size = s.size();
        assertAll(fetches(s, new int[][] {{size}, {size, size}, {size, Integer.MAX_VALUE}}));
    }

    @Test
    public final void required_invalidRangesAreRejected() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        int size = s.size();
        List<Executable> checks = new ArrayList<>();
        for (int[] range : new int[][] {
            {-1},
            {size + 1},
            {Integer.MAX_VALUE},
            {-1, 10},
            {-5, -1},
            {10, 9},
            {size / 2, size / 2 - 1},
            {size + 1, size + 5},
            {Integer.MAX_VALUE, Integer.MAX_VALUE}
        }) {
            checks.add(() -> assertThrows(
                    InvalidRangeException.class,
                    () -> fetch(s, range),
                    "fetchLogSegment" + describe(range) + " of a segment of " + size + " bytes"));
        }
        assertAll(checks);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(IndexType.class)
    public final void required_fetchIndexReturnsTheCopiedBytes(IndexType type) throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        assertSameBytes(s.index(type).orElseThrow(), fetchIndex(s, type), "fetchIndex(" + type + ")");
    }

    @Test
    public final void required_missingTransactionIndexIsNotFound() throws Exception {
        LocalSegment s = copied(local(segment(partition).size(SEGMENT_BYTES).build(), false, 0));
        assertAll(
                () -> assertThrows(
                        RemoteResourceNotFoundException.class,
                        () -> fetchIndex(s, IndexType.TRANSACTION),
                        "fetchIndex(TRANSACTION) of a segment copied without one"),
                () -> assertSameBytes(
                        s.index(IndexType.OFFSET).orElseThrow(),
                        fetchIndex(s, IndexType.OFFSET),
                        "fetchIndex(OFFSET) of a segment copied without a transaction index"));
    }

    @Test
    public final void required_emptySegmentRoundTrips() throws Exception {
        LocalSegment s = copied(local(0));
        List<Executable> checks = new ArrayList<>(List.of(fetches(s, new int[][] {{0}, {0, 0}, {0, 100}})));
        checks.add(() ->
                assertThrows(InvalidRangeException.class, () -> fetch(s, 1), "fetchLogSegment(1) of an empty segment"));
        for (IndexType type : EnumSet.complementOf(EnumSet.of(IndexType.TRANSACTION))) {
            checks.add(() -> assertSameBytes(
                    s.index(type).orElseThrow(),
                    fetchIndex(s, type),
                    "fetchIndex(" + type + ") of an empty segment (empty files are files too)"));
        }
        assertAll(checks);
    }

    @Test
    public final void required_neverCopiedSegmentIsNotFound() throws Exception {
        assertAllNotFound(local(SEGMENT_BYTES), "a segment never copied");
    }

    @Test
    public final void required_copyRetryWithTheSameIdOverwrites() throws Exception {
        RemoteLogSegmentMetadata metadata =
                segment(partition).size(SEGMENT_BYTES).build();
        copied(local(metadata, true, 0));
        LocalSegment retry = copied(local(metadata, true, 1));
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertSameBytes(retry.log(), fetch(retry, 0), "fetchLogSegment(0) after a retry"));
        for (IndexType type : IndexType.values()) {
            checks.add(() -> assertSameBytes(
                    retry.index(type).orElseThrow(),
                    fetchIndex(retry, type),
                    "fetchIndex(" + type + ") after a retry"));
        }
        assertAll(checks);
    }

    @Test
    public final void required_failedCopyLeavesNothingFetchable() throws Exception {
        LocalSegment s = local(SEGMENT_BYTES);
        assertEveryCopyFailsAndLeavesNothing(s, s.dataWithOneFileMissing(), "is missing");
        copied(s);
        assertSameBytes(s.log(), fetch(s, 0), "fetchLogSegment(0) after failed attempts and a complete retry");
    }

    @Test
    public final void required_copyFailingPartWayLeavesNothingFetchable() throws Exception {
        LocalSegment s = local(SEGMENT_BYTES);
        assertEveryCopyFailsAndLeavesNothing(s, s.dataWithOneFileUnreadable(), "cannot be read (the log can)");
        RemoteLogSegmentMetadata started = s.metadata();
        LocalSegment next = copied(local(
                segment(partition)
                        .offsets(started.startOffset(), started.endOffset())
                        .size(SEGMENT_BYTES)
                        .build(),
                true,
                1));
        assertAll(
                () -> assertSegmentIntact(next, "copied with a new id after copies that failed part-way"),
                () -> assertAllNotFound(s, "the segment whose copies failed part-way, after a copy with a new id"));
    }

    /** Each of {@code attempts} (by the file it spoils) fails with a RemoteStorageException and leaves nothing. */
    private void assertEveryCopyFailsAndLeavesNothing(
            LocalSegment s, Map<String, LogSegmentData> attempts, String spoiled) {
        List<Executable> checks = new ArrayList<>();
        for (Map.Entry<String, LogSegmentData> attempt : attempts.entrySet()) {
            String what = "a copy whose " + attempt.getKey() + " " + spoiled;
            checks.add(() -> {
                assertThrows(
                        RemoteStorageException.class,
                        () -> rsm.copyLogSegmentData(s.metadata(), attempt.getValue()),
                        what + " must fail with a RemoteStorageException");
                assertAllNotFound(s, "the segment after " + what);
            });
        }
        assertAll(checks);
    }

    @Test
    public final void required_copiesAreKeptApartBySegmentId() throws Exception {
        // The same offsets in: another copy attempt, another partition, and a topic re-created under the same name.
        TopicIdPartition recreated = new TopicIdPartition(Uuid.randomUuid(), partition.topicPartition());
        TopicIdPartition neighbour = new TopicIdPartition(partition.topicId(), partition.topic(), 1);
        List<LocalSegment> segments = new ArrayList<>();
        for (TopicIdPartition owner : List.of(partition, partition, recreated, neighbour)) {
            segments.add(copied(
                    local(segment(owner).offsets(0, 99).size(SEGMENT_BYTES).build(), true, 0)));
        }
        if (has(DELETE)) {
            rsm.deleteLogSegmentData(deleting(segments.removeFirst()));
        }
        List<Executable> checks = new ArrayList<>();
        for (LocalSegment s : segments) {
            checks.add(() -> assertSameBytes(
                    s.log(),
                    fetch(s, 0),
                    "fetchLogSegment(0) of " + s.metadata().remoteLogSegmentId()));
            checks.add(() -> assertSameBytes(
                    s.index(IndexType.OFFSET).orElseThrow(),
                    fetchIndex(s, IndexType.OFFSET),
                    "fetchIndex(OFFSET) of " + s.metadata().remoteLogSegmentId()));
        }
        assertAll(checks);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Custom metadata

    @Test
    public final void optional_copyReturnsCustomMetadataThatLaterCallsReceive() throws Exception {
        Verdicts.requireCapability(has(CUSTOM_METADATA), CUSTOM_METADATA);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        CustomMetadata returned =
                customMetadata.get(s.metadata().remoteLogSegmentId()).orElse(null);
        assertNotNull(
                returned, "a copy must return custom metadata when the implementation declares " + CUSTOM_METADATA);
        assertTrue(
                returned.size() <= customMetadataMaxBytes(),
                "custom metadata of " + returned.size() + " bytes exceeds the broker's limit of "
                        + customMetadataMaxBytes());
        assertEquals(Optional.of(returned), finished(s).customMetadata(), "the kit hands the returned bytes back");
        assertSameBytes(s.log(), fetch(s, 0), "fetchLogSegment(0) with the custom metadata the copy returned");
        if (has(DELETE)) {
            rsm.deleteLogSegmentData(deleting(s));
            assertAllNotFound(s, "a segment deleted with its custom metadata");
        }
    }

    @Test
    public final void required_withoutCustomMetadataCopyReturnsNone() throws Exception {
        Verdicts.requireNoCapability(has(CUSTOM_METADATA), CUSTOM_METADATA);
        LocalSegment s = local(SEGMENT_BYTES);
        assertEquals(
                Optional.empty(),
                rsm.copyLogSegmentData(s.metadata(), s.data()),
                "a copy returned custom metadata, so the implementation must declare " + CUSTOM_METADATA);
    }

    @Test
    public final void required_customMetadataTheImplementationDidNotWriteIsRefusedOrIgnored() throws Exception {
        boolean uses = has(CUSTOM_METADATA);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        List<Executable> checks = new ArrayList<>();
        for (Map.Entry<String, byte[]> foreign : foreignCustomMetadata().entrySet()) {
            RemoteLogSegmentMetadata carrying = finished(s)
                    .createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                            s.metadata().remoteLogSegmentId(),
                            s.metadata().eventTimestampMs() + 2,
                            Optional.of(new CustomMetadata(foreign.getValue())),
                            RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                            SegmentBuilder.UPDATING_BROKER));
            String with = " with custom metadata it did not write (" + foreign.getKey() + ")";
            checks.add(() -> refusedOrRight(
                    uses, "fetchLogSegment(0)" + with, s.log(), () -> readAll(rsm.fetchLogSegment(carrying, 0))));
            checks.add(() -> refusedOrRight(
                    uses,
                    "fetchLogSegment(1, size / 2)" + with,
                    s.log(1, s.size() / 2 + 1),
                    () -> readAll(rsm.fetchLogSegment(carrying, 1, s.size() / 2))));
            checks.add(() -> refusedOrRight(
                    uses,
                    "fetchIndex(OFFSET)" + with,
                    s.index(IndexType.OFFSET).orElseThrow(),
                    () -> readAll(rsm.fetchIndex(carrying, IndexType.OFFSET))));
        }
        assertAll(checks);
        if (has(DELETE)) {
            RemoteLogSegmentMetadata carrying = deleting(s)
                    .createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                            s.metadata().remoteLogSegmentId(),
                            s.metadata().eventTimestampMs() + 3,
                            Optional.of(new CustomMetadata(new byte[] {0x7F})),
                            RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                            SegmentBuilder.UPDATING_BROKER));
            String what = "deleteLogSegmentData with custom metadata it did not write (1 byte)";
            refusedOrRight(uses, what, null, () -> {
                rsm.deleteLogSegmentData(carrying);
                return null;
            });
            if (!uses) {
                assertAllNotFound(s, "a segment deleted with custom metadata the implementation ignores");
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Delete

    @Test
    public final void optional_deleteRemovesTheSegmentAndItsIndexes() throws Exception {
        Verdicts.requireCapability(has(DELETE), DELETE);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        rsm.deleteLogSegmentData(deleting(s));
        assertAllNotFound(s, "a deleted segment");
    }

    @Test
    public final void optional_deleteIsIdempotent() throws Exception {
        Verdicts.requireCapability(has(DELETE), DELETE);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        rsm.deleteLogSegmentData(deleting(s));
        LocalSegment neverCopied = local(SEGMENT_BYTES);
        assertAll(() -> rsm.deleteLogSegmentData(deleting(s)), () -> rsm.deleteLogSegmentData(deleting(neverCopied)));
    }

    @Test
    public final void required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost() throws Exception {
        Verdicts.requireNoCapability(has(DELETE), DELETE);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        RemoteStorageException refusal = assertThrows(
                RemoteStorageException.class,
                () -> rsm.deleteLogSegmentData(deleting(s)),
                "a delete must be refused without " + DELETE);
        assertFalse(
                refusal instanceof RemoteResourceNotFoundException,
                "a refused delete must not claim the segment is missing: " + refusal);
        assertSegmentIntact(s, "after a refused delete");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lifetime, size and concurrency

    @Test
    public final void optional_segmentsSurviveRestart() throws Exception {
        Verdicts.requireCapability(has(DURABLE), DURABLE);
        LocalSegment s = copied(local(SEGMENT_BYTES));
        LocalSegment withoutTxnIndex =
                copied(local(segment(partition).size(SEGMENT_BYTES).build(), false, 0));
        rsm.close();
        rsm = null;
        rsm = create();
        assertSegmentIntact(s, "after a restart");
        assertThrows(
                RemoteResourceNotFoundException.class,
                () -> fetchIndex(withoutTxnIndex, IndexType.TRANSACTION),
                "fetchIndex(TRANSACTION) after a restart, of a segment copied without one");
    }

    @Test
    public final void required_largeSegmentIsStreamedWithBoundedMemory() throws Exception {
        int size = largeSegmentBytes();
        long heap = Runtime.getRuntime().maxMemory();
        if (size <= heap) {
            Verdicts.notVerified("a segment of " + size + " bytes fits in the maximum heap of " + heap + " bytes, so"
                    + " streaming cannot be told from buffering; run the kit with -Xmx" + size / 2 / MIB + "m or"
                    + " raise largeSegmentBytes()");
        }
        long usable = Files.getFileStore(localFiles).getUsableSpace();
        if (usable < 3L * size) {
            Verdicts.notVerified("the scratch file system has " + usable + " usable bytes; the rule needs " + 3L * size
                    + " for a segment of " + size + " bytes and its copy");
        }
        LocalSegment s = local(size);
        try {
            copied(s);
            PatternBytes.StreamDigest whole = PatternBytes.digest(rsm.fetchLogSegment(finished(s), 0));
            int middle = size / 2 + 5;
            PatternBytes.StreamDigest tail = PatternBytes.digest(rsm.fetchLogSegment(finished(s), middle));
            int from = size - MIB - 3;
            byte[] end = readAll(rsm.fetchLogSegment(finished(s), from, Integer.MAX_VALUE));
            assertAll(
                    () -> assertEquals(size, whole.length(), "bytes of fetchLogSegment(0)"),
                    () -> assertArrayEquals(s.logSha256(), whole.sha256(), "SHA-256 of fetchLogSegment(0)"),
                    () -> assertEquals(size - middle, tail.length(), "bytes of fetchLogSegment(" + middle + ")"),
                    () -> assertArrayEquals(
                            s.logSha256From(middle), tail.sha256(), "SHA-256 of fetchLogSegment(" + middle + ")"),
                    () -> assertSameBytes(s.log(from, size), end, "fetchLogSegment(" + from + ", MAX_VALUE)"));
        } catch (OutOfMemoryError e) {
            fail(
                    "the implementation ran out of heap (" + heap + " bytes) moving a segment of " + size
                            + " bytes: it must stream segments, not hold them in memory",
                    e);
        }
    }

    @Test
    public final void required_concurrentCopiesFetchesAndDeletesOfDifferentSegments() throws Exception {
        int threads = concurrency();
        List<LocalSegment> toCopy = new ArrayList<>();
        List<LocalSegment> toRead = new ArrayList<>();
        List<LocalSegment> toDelete = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            toCopy.add(local(SEGMENT_BYTES + 4099 * i));
            toRead.add(copied(local(SEGMENT_BYTES - 3001 * i)));
            if (has(DELETE) && i % 2 == 0) {
                toDelete.add(copied(local(SEGMENT_BYTES + 17 * i)));
            }
        }
        // Copies go first, one per thread, so they overlap; reads and deletes follow as threads free up.
        List<Concurrently.Task> tasks = new ArrayList<>();
        toCopy.forEach(s -> tasks.add(() -> {
            copied(s);
            assertSegmentIntact(s, "copied concurrently");
        }));
        toRead.forEach(s -> tasks.add(() -> assertSegmentIntact(s, "read concurrently")));
        toDelete.forEach(s -> tasks.add(() -> rsm.deleteLogSegmentData(deleting(s))));
        Concurrently.run(tasks, threads, operationTimeout());
        List<Executable> checks = new ArrayList<>();
        toCopy.forEach(s -> checks.add(() -> assertSegmentIntact(s, "after concurrent copies")));
        toRead.forEach(s -> checks.add(() -> assertSegmentIntact(s, "after concurrent reads")));
        toDelete.forEach(s -> checks.add(() -> assertAllNotFound(s, "a segment deleted concurrently")));
        assertAll(checks);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Closing, streams and interruption

    @Test
    public final void required_callsAfterCloseFailAndDoNothing() throws Exception {
        LocalSegment kept = copied(local(SEGMENT_BYTES));
        LocalSegment late = local(SEGMENT_BYTES);
        RemoteStorageManager closed = rsm;
        Bounded.run("close()", operationTimeout(), closed::close);
        Bounded.run("a second close() (close is idempotent)", operationTimeout(), closed::close);
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> AfterClose.refused(
                "copyLogSegmentData", () -> closed.copyLogSegmentData(late.metadata(), late.data())));
        checks.add(() -> AfterClose.refused("fetchLogSegment(0)", () -> closed.fetchLogSegment(finished(kept), 0)));
        checks.add(() ->
                AfterClose.refused("fetchLogSegment(0, 10)", () -> closed.fetchLogSegment(finished(kept), 0, 10)));
        for (IndexType type : IndexType.values()) {
            checks.add(() ->
                    AfterClose.refused("fetchIndex(" + type + ")", () -> closed.fetchIndex(finished(kept), type)));
        }
        checks.add(() -> AfterClose.refused("deleteLogSegmentData", () -> {
            closed.deleteLogSegmentData(deleting(kept));
            return null;
        }));
        assertAll(checks);
        if (has(DURABLE)) {
            rsm = create();
            assertAll(
                    () -> assertSegmentIntact(kept, "after a delete refused by the closed instance"),
                    () -> assertAllNotFound(late, "a segment copied to the closed instance"));
        }
    }

    @Test
    public final void required_closeReturnsWithStreamsLeftOpenWhichThenEndOrFail() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        byte[] index = s.index(IndexType.OFFSET).orElseThrow();
        InputStream log = rsm.fetchLogSegment(finished(s), 0);
        InputStream offsets = rsm.fetchIndex(finished(s), IndexType.OFFSET);
        try (log;
                offsets) {
            assertSameBytes(s.log(0, 1000), log.readNBytes(1000), "the first 1000 bytes of fetchLogSegment(0)");
            assertSameBytes(Arrays.copyOf(index, 8), offsets.readNBytes(8), "the first 8 bytes of fetchIndex(OFFSET)");
            RemoteStorageManager closing = rsm;
            Bounded.run("close() with two streams left open", operationTimeout(), closing::close);
            assertAll(
                    () -> endsOrFails("fetchLogSegment(0)", log, s.log(1000, s.size())),
                    () -> endsOrFails("fetchIndex(OFFSET)", offsets, Arrays.copyOfRange(index, 8, index.length)));
        }
    }

    @Test
    public final void required_streamsClosedBeforeTheirEndReleaseWhatTheyHold() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        String what = PARTLY_READ_STREAMS + " streams, each read in part and closed";
        Bounded.run(what, operationTimeout(), () -> {
            for (int i = 0; i < PARTLY_READ_STREAMS; i++) {
                int from = 17 * i;
                switch (i % 3) {
                    case 0 -> readPart(s.log(from, from + 100), rsm.fetchLogSegment(finished(s), from), i);
                    case 1 ->
                        readPart(s.log(from, from + 100), rsm.fetchLogSegment(finished(s), from, s.size() - 1), i);
                    default ->
                        readPart(
                                Arrays.copyOf(s.index(IndexType.OFFSET).orElseThrow(), 100),
                                rsm.fetchIndex(finished(s), IndexType.OFFSET),
                                i);
                }
            }
            assertSegmentIntact(s, "after " + what);
        });
    }

    @Test
    public final void required_interruptedCallsCompleteOrFailAndLeaveTheInstanceWorking() throws Exception {
        LocalSegment s = copied(local(SEGMENT_BYTES));
        LocalSegment copiedInterrupted = local(SEGMENT_BYTES);
        LocalSegment deletedInterrupted = has(DELETE) ? copied(local(SEGMENT_BYTES)) : null;
        boolean[] completed = new boolean[2];
        // A thread of its own, interrupted before each call: every blocking operation in the call sees it.
        Bounded.run("calls on an interrupted thread", operationTimeout(), () -> {
            completed[0] = interrupted("copyLogSegmentData", () -> copied(copiedInterrupted));
            interrupted("fetchLogSegment(0) and reading it", () -> fetchOnInterrupted(s.log(), () -> fetch(s, 0)));
            interrupted(
                    "fetchLogSegment(1, size / 2) and reading it",
                    () -> fetchOnInterrupted(s.log(1, s.size() / 2 + 1), () -> fetch(s, 1, s.size() / 2)));
            interrupted(
                    "fetchIndex(OFFSET) and reading it",
                    () -> fetchOnInterrupted(
                            s.index(IndexType.OFFSET).orElseThrow(), () -> fetchIndex(s, IndexType.OFFSET)));
            if (deletedInterrupted != null) {
                completed[1] = interrupted(
                        "deleteLogSegmentData", () -> rsm.deleteLogSegmentData(deleting(deletedInterrupted)));
            }
        });
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertSegmentIntact(s, "from another thread after interrupted calls"));
        checks.add(() -> {
            if (completed[0]) {
                assertSegmentIntact(copiedInterrupted, "copied on an interrupted thread");
            } else {
                assertAllNotFound(copiedInterrupted, "a segment whose copy failed on an interrupted thread");
            }
        });
        if (deletedInterrupted != null) {
            checks.add(() -> {
                if (!completed[1]) {
                    rsm.deleteLogSegmentData(deleting(deletedInterrupted));
                }
                assertAllNotFound(deletedInterrupted, "a segment deleted on an interrupted thread");
            });
        }
        checks.add(() -> assertSegmentIntact(
                copied(local(SEGMENT_BYTES)), "copied from another thread after interrupted calls"));
        assertAll(checks);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers

    private RemoteStorageManager create() throws Exception {
        RemoteStorageManager created = createRemoteStorageManager(scratch);
        assertNotNull(created, "createRemoteStorageManager returned null");
        return created;
    }

    private boolean has(RemoteStorageManagerCapability capability) {
        Set<RemoteStorageManagerCapability> declared = capabilities();
        assertNotNull(declared, "capabilities() returned null");
        return declared.contains(capability);
    }

    private LocalSegment local(int size) throws IOException {
        return local(segment(partition).size(size).build(), true, 0);
    }

    private LocalSegment local(RemoteLogSegmentMetadata metadata, boolean transactionIndex, int attempt)
            throws IOException {
        return LocalSegment.write(localFiles, metadata, transactionIndex, attempt);
    }

    /** Copies a segment as the broker does, remembering the custom metadata the copy returned. */
    private LocalSegment copied(LocalSegment s) throws RemoteStorageException {
        Optional<CustomMetadata> returned = rsm.copyLogSegmentData(s.metadata(), s.data());
        assertNotNull(returned, "copyLogSegmentData returned null instead of an Optional");
        customMetadata.put(s.metadata().remoteLogSegmentId(), returned);
        return s;
    }

    /** The metadata the broker fetches with: the copy finished, carrying what the copy returned. */
    private RemoteLogSegmentMetadata finished(LocalSegment s) {
        RemoteLogSegmentMetadata started = s.metadata();
        Optional<CustomMetadata> returned = customMetadata.getOrDefault(started.remoteLogSegmentId(), Optional.empty());
        return started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                started.remoteLogSegmentId(),
                started.eventTimestampMs() + 1,
                returned,
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                SegmentBuilder.UPDATING_BROKER));
    }

    /** The metadata the broker deletes with. */
    private RemoteLogSegmentMetadata deleting(LocalSegment s) {
        RemoteLogSegmentMetadata finished = finished(s);
        return finished.createWithUpdates(
                SegmentBuilder.update(finished, RemoteLogSegmentState.DELETE_SEGMENT_STARTED));
    }

    private byte[] fetch(LocalSegment s, int... range) throws RemoteStorageException, IOException {
        return readAll(
                range.length == 1
                        ? rsm.fetchLogSegment(finished(s), range[0])
                        : rsm.fetchLogSegment(finished(s), range[0], range[1]));
    }

    private byte[] fetchIndex(LocalSegment s, IndexType type) throws RemoteStorageException, IOException {
        return readAll(rsm.fetchIndex(finished(s), type));
    }

    /** Checks that each fetch returns exactly the bytes its range covers, the end clamped to the segment. */
    private Executable[] fetches(LocalSegment s, int[][] ranges) {
        Executable[] checks = new Executable[ranges.length];
        for (int i = 0; i < ranges.length; i++) {
            int[] range = ranges[i];
            long from = Math.min(range[0], s.size());
            long to = range.length == 1 ? s.size() : Math.min((long) range[1] + 1, s.size());
            checks[i] = () -> assertSameBytes(
                    s.log(from, Math.max(from, to)),
                    fetch(s, range),
                    "fetchLogSegment" + describe(range) + " of a segment of " + s.size() + " bytes");
        }
        return checks;
    }

    private static String describe(int[] range) {
        return range.length == 1 ? "(" + range[0] + ")" : "(" + range[0] + ", " + range[1] + ")";
    }

    private void assertSegmentIntact(LocalSegment s, String when) {
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertSameBytes(s.log(), fetch(s, 0), "fetchLogSegment(0) " + when));
        checks.add(() -> assertSameBytes(
                s.log(1, s.size() / 2 + 1), fetch(s, 1, s.size() / 2), "fetchLogSegment(1, size / 2) " + when));
        for (IndexType type : IndexType.values()) {
            checks.add(() -> assertSameBytes(
                    s.index(type).orElseThrow(), fetchIndex(s, type), "fetchIndex(" + type + ") " + when));
        }
        assertAll(checks);
    }

    private void assertAllNotFound(LocalSegment s, String what) {
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertThrows(
                RemoteResourceNotFoundException.class, () -> fetch(s, 0), "fetchLogSegment(0) of " + what));
        checks.add(() -> assertThrows(
                RemoteResourceNotFoundException.class, () -> fetch(s, 0, 10), "fetchLogSegment(0, 10) of " + what));
        for (IndexType type : IndexType.values()) {
            checks.add(() -> assertThrows(
                    RemoteResourceNotFoundException.class,
                    () -> fetchIndex(s, type),
                    "fetchIndex(" + type + ") of " + what));
        }
        assertAll(checks);
    }

    /** Custom metadata that no implementation wrote: a byte, text, the broker's limit of 0xFF, 16 zero bytes. */
    private Map<String, byte[]> foreignCustomMetadata() {
        Map<String, byte[]> foreign = new java.util.LinkedHashMap<>();
        foreign.put("1 byte", new byte[] {0x7F});
        foreign.put("text", "kit: not yours".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        byte[] full = new byte[customMetadataMaxBytes()];
        Arrays.fill(full, (byte) 0xFF);
        foreign.put(full.length + " bytes of 0xFF", full);
        foreign.put("16 zero bytes", new byte[16]);
        return foreign;
    }

    /**
     * Checks a call that received custom metadata the implementation did not write: one that uses custom metadata
     * refuses it with a {@link RemoteStorageException} or answers right; one that uses none answers right.
     */
    private static void refusedOrRight(boolean refusalAllowed, String what, byte[] expected, Bounded.Call<byte[]> call)
            throws Exception {
        byte[] answer;
        try {
            answer = call.call();
        } catch (RemoteStorageException e) {
            if (refusalAllowed) {
                return;
            }
            throw new AssertionError(
                    what + " must ignore custom metadata: the implementation does not declare " + CUSTOM_METADATA
                            + ", yet it failed with " + e,
                    e);
        } catch (RuntimeException e) {
            throw new AssertionError(
                    what + " must "
                            + (refusalAllowed ? "fail with a RemoteStorageException or answer right" : "answer right")
                            + ", not throw " + e,
                    e);
        }
        if (expected != null) {
            assertSameBytes(expected, answer, what);
        }
    }

    /**
     * Reads the rest of a stream whose instance was closed, bounded by the operation timeout: it ends with the
     * whole rest, or fails with an {@code IOException} after a part of it, never with other bytes.
     */
    private void endsOrFails(String what, InputStream stream, byte[] rest) throws Exception {
        java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        IOException failure = Bounded.call(what + " read after close()", operationTimeout(), () -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = stream.read(buffer); n >= 0; n = stream.read(buffer)) {
                    read.write(buffer, 0, n);
                }
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        byte[] bytes = read.toByteArray();
        if (failure == null) {
            assertSameBytes(rest, bytes, what + " read to its end after close()");
        } else {
            assertSameBytes(
                    Arrays.copyOf(rest, Math.min(rest.length, bytes.length)),
                    bytes,
                    what + " read after close() until it failed with " + failure);
        }
    }

    private static void readPart(byte[] expected, InputStream stream, int number) throws IOException {
        try (stream) {
            assertSameBytes(expected, stream.readNBytes(expected.length), "the start of stream " + number);
        }
    }

    /**
     * Makes a call with the current thread's interrupt status set, and clears it after. The call must complete or
     * fail with a {@link RemoteStorageException} (an {@code IOException} for reading a stream), and leave the status
     * set.
     *
     * @return whether the call completed
     */
    private static boolean interrupted(String what, Bounded.Task call) {
        Thread.currentThread().interrupt();
        Throwable failure = null;
        try {
            call.run();
        } catch (Throwable t) {
            failure = t;
        }
        boolean stillInterrupted = Thread.interrupted();
        if (failure instanceof AssertionError wrongBytes) {
            throw wrongBytes;
        }
        if (failure != null && !(failure instanceof RemoteStorageException) && !(failure instanceof IOException)) {
            throw new AssertionError(
                    what + " on an interrupted thread must complete or fail with a RemoteStorageException, not "
                            + failure,
                    failure);
        }
        assertTrue(
                stillInterrupted,
                what + " on an interrupted thread " + (failure == null ? "completed" : "failed with " + failure)
                        + " but cleared the thread's interrupt status: keep it, or restore it where an"
                        + " InterruptedException was caught");
        return failure == null;
    }

    /** A fetch on an interrupted thread that returned bytes: they must be the right ones. */
    private static void fetchOnInterrupted(byte[] expected, Bounded.Call<byte[]> fetch) throws Exception {
        assertSameBytes(expected, fetch.call(), "bytes fetched on an interrupted thread");
    }
}
