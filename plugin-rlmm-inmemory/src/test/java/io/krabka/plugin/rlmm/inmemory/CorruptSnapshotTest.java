package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.upsert;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A snapshot that is not valid is refused with an {@link InvalidSnapshotException} naming the file and the fault,
 * and loading it changes nothing. Each case spoils one thing in a valid snapshot of partition TP0, which holds
 * segment A (offsets 0-100, epochs 0 from 0 and 1 from 50, readable) and segment B (offsets 101-200, epoch 1,
 * still copying), and is marked for deletion.
 */
class CorruptSnapshotTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private InMemoryRemoteLogMetadataManager manager;
    private String valid;

    @BeforeEach
    void writeAValidSnapshot() throws Exception {
        manager = manager();
        upsert(manager, started(TP0, 0, 100, Map.of(0, 0L, 1, 50L)), COPY_SEGMENT_FINISHED);
        upsert(manager, started(TP0, 101, 200, Map.of(1, 101L)), COPY_SEGMENT_STARTED);
        manager.putRemotePartitionDeleteMetadata(
                new RemotePartitionDeleteMetadata(TP0, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, 1L, 0));
        Path file = dir.resolve("valid.json");
        manager.writeSnapshot(file);
        valid = Files.readString(file);
    }

    static Stream<Arguments> spoiledFiles() {
        return Stream.of(
                text("not JSON", "{\"version\": 1,", "malformed JSON at line"),
                text("empty", "", "the file is empty"),
                text("an array", "[]", "expected a JSON object at the top"),
                text("trailing text", "{\"version\": 1, \"partitions\": []} and more", "malformed JSON"),
                text("a second document", "{\"version\": 1, \"partitions\": []} {}", "Trailing token"),
                text(
                        "a repeated key",
                        "{\"version\": 1, \"version\": 1, \"partitions\": []}",
                        "Duplicate field 'version'"),
                edit("no version", root -> root.remove("version"), "version: missing"),
                edit("a textual version", root -> root.put("version", "1"), "version: expected a 32-bit whole number"),
                edit("version 0", root -> root.put("version", 0), "version: expected 1, found 0"),
                edit("an unknown field", root -> root.put("compression", "zstd"), "compression: unexpected field"),
                edit("no partitions", root -> root.remove("partitions"), "partitions: missing"),
                edit("partitions not a list", root -> root.put("partitions", 3), "partitions: expected an array"),
                edit(
                        "a bad topic id",
                        root -> partition(root).put("topicId", "nope"),
                        "partitions[0].topicId: not a Kafka Uuid"),
                edit(
                        "a negative partition",
                        root -> partition(root).put("partition", -1),
                        "partitions[0]: partition must be at least 0"),
                edit(
                        "an offset in text",
                        root -> segment(root, 0).put("startOffset", "0"),
                        "partitions[0].segments[0].startOffset: expected a 64-bit whole number"),
                edit(
                        "a fractional offset",
                        root -> segment(root, 0).put("endOffset", 100.5),
                        "partitions[0].segments[0].endOffset: expected a 64-bit whole number"),
                edit(
                        "an offset beyond 64 bits",
                        root -> segment(root, 0).put("endOffset", new BigInteger("99999999999999999999")),
                        "endOffset: expected a 64-bit whole number"),
                edit(
                        "a reversed segment",
                        root -> segment(root, 0).put("startOffset", 150),
                        "partitions[0].segments[0]: endOffset 100 is below startOffset 150"),
                edit(
                        "a bad segment id",
                        root -> segment(root, 0).put("segmentId", "AAAA"),
                        "partitions[0].segments[0].segmentId: not a Kafka Uuid"),
                edit(
                        "an unknown state",
                        root -> segment(root, 0).put("state", "COPIED"),
                        "partitions[0].segments[0].state: \"COPIED\" is not one of"),
                edit(
                        "bad base64",
                        root -> segment(root, 0).put("customMetadata", "!!"),
                        "partitions[0].segments[0].customMetadata"),
                edit(
                        "a size in text",
                        root -> segment(root, 0).put("segmentSizeInBytes", "big"),
                        "segmentSizeInBytes: expected a 32-bit whole number"),
                edit(
                        "a textual flag",
                        root -> segment(root, 0).put("txnIdxEmpty", "true"),
                        "txnIdxEmpty: expected true or false"),
                edit(
                        "an epoch that is not a number",
                        root -> epochs(root, 0).put("x", 3),
                        "segmentLeaderEpochs.x: a leader epoch must be a whole number"),
                edit("an epoch with a leading zero", root -> epochs(root, 0).put("01", 3), "segmentLeaderEpochs.01"),
                edit("no epochs", root -> epochs(root, 0).removeAll(), "segmentLeaderEpochs must not be empty"),
                edit(
                        "a missing segment field",
                        root -> segment(root, 1).remove("maxTimestampMs"),
                        "partitions[0].segments[1].maxTimestampMs: missing"),
                edit(
                        "a deleted segment",
                        root -> segment(root, 1).put("state", "DELETE_SEGMENT_FINISHED"),
                        "deleted segments are not kept"),
                edit(
                        "a segment twice",
                        root -> segments(root).add(segment(root, 0).deepCopy()),
                        "appears twice"),
                edit(
                        "a partition twice",
                        root -> ((ArrayNode) root.get("partitions"))
                                .add(partition(root).deepCopy()),
                        "appears twice"),
                edit(
                        "a reference to an unknown segment",
                        root -> referenced(root, 0)
                                .put("segmentId", Uuid.randomUuid().toString()),
                        "epoch 0 tracks unknown segment"),
                edit(
                        "a reference to a segment of another epoch",
                        root -> referenced(root, 0)
                                .put(
                                        "segmentId",
                                        segment(root, 1).get("segmentId").textValue()),
                        "which holds no records of that epoch"),
                edit(
                        "a reference to a copy still running",
                        root -> {
                            String a = segment(root, 0).get("segmentId").textValue();
                            String b = segment(root, 1).get("segmentId").textValue();
                            referenced(root, 1).put("startOffset", 101).put("segmentId", b);
                            ((ArrayNode) epoch(root, 1).get("unreferenced"))
                                    .removeAll()
                                    .add(a);
                        },
                        "which is COPY_SEGMENT_STARTED, not readable"),
                edit(
                        "a reference at the wrong offset",
                        root -> referenced(root, 0).put("startOffset", 7),
                        "at offset 7 but the epoch starts at 0"),
                edit(
                        "a segment its epoch does not track",
                        root -> ((ArrayNode) epoch(root, 1).get("unreferenced")).removeAll(),
                        "holds leader epoch 1 but that epoch does not track it"),
                edit(
                        "readable segments without a highest offset",
                        root -> epoch(root, 0).putNull("highestLogOffset"),
                        "epoch 0 has readable segments but no highest offset"),
                edit(
                        "an epoch twice",
                        root -> ((ArrayNode) partition(root).get("leaderEpochs"))
                                .add(epoch(root, 0).deepCopy()),
                        "leader epoch 0 appears twice"),
                edit(
                        "an unknown deletion state",
                        root -> ((ObjectNode) partition(root).get("deleteState")).put("state", "GONE"),
                        "partitions[0].deleteState.state: \"GONE\" is not one of"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spoiledFiles")
    void isRefusedAndChangesNothing(String name, Spoiler spoiler, String expected) throws Exception {
        Path file = dir.resolve("spoiled.json");
        Files.writeString(file, spoiler.spoil(valid));
        Path before = dir.resolve("before.json");
        manager.writeSnapshot(before);

        InvalidSnapshotException e = assertThrows(InvalidSnapshotException.class, () -> manager.loadSnapshot(file));
        assertEquals(file, e.file());
        assertTrue(e.getMessage().startsWith(file + ": not a valid remote log metadata snapshot: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());

        Path after = dir.resolve("after.json");
        manager.writeSnapshot(after);
        assertArrayEquals(Files.readAllBytes(before), Files.readAllBytes(after), "nothing was loaded");
    }

    /** Turns the valid snapshot's text into a spoiled one. */
    @FunctionalInterface
    interface Spoiler {
        String spoil(String valid) throws Exception;
    }

    private static Arguments text(String name, String text, String expected) {
        return Arguments.of(name, (Spoiler) valid -> text, expected);
    }

    private static Arguments edit(String name, Consumer<ObjectNode> edit, String expected) {
        return Arguments.of(
                name,
                (Spoiler) valid -> {
                    ObjectNode root = (ObjectNode) JSON.readTree(valid);
                    edit.accept(root);
                    return JSON.writeValueAsString(root);
                },
                expected);
    }

    private static ObjectNode partition(ObjectNode root) {
        return (ObjectNode) root.get("partitions").get(0);
    }

    private static ArrayNode segments(ObjectNode root) {
        return (ArrayNode) partition(root).get("segments");
    }

    private static ObjectNode segment(ObjectNode root, int index) {
        return (ObjectNode) segments(root).get(index);
    }

    private static ObjectNode epochs(ObjectNode root, int segment) {
        return (ObjectNode) segment(root, segment).get("segmentLeaderEpochs");
    }

    private static ObjectNode epoch(ObjectNode root, int index) {
        return (ObjectNode) partition(root).get("leaderEpochs").get(index);
    }

    private static ObjectNode referenced(ObjectNode root, int epoch) {
        return (ObjectNode) epoch(root, epoch).get("referenced").get(0);
    }
}
