package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka 4.4's snapshot writer, fed what its format tool feeds it and a stopped clock, judges the bootstrap
 * snapshot: the same bytes, file for file; and Kafka's snapshot reader reads Krabka's file as its own.
 */
class BootstrapSnapshotTest {
    private static final long NOW = 1_796_010_444_407L;
    private static final String FIVE_VOTERS = "17@a:1:AAAAAAAAAAAAAAAAAAAAAQ,1@127.0.0.1:9093:0XYIQhIGSoePQhGC5Avl4w,"
            + "33@[::1]:3:AAAAAAAAAAAAAAAAAAABAQ,16@localhost:4:AAAAAAAAAAAAAAAAAAABAg,"
            + "100000@Host.Example:5:AAAAAAAAAAAAAAAAAAABAw,2@:65535:kFtEAwnxTqKW0CKbOLkH0g";

    @TempDir
    Path dir;

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of(
                        "standalone, Kafka 4.4's defaults",
                        Optional.empty(),
                        List.of(),
                        Optional.of("1@127.0.0.1:9093:0XYIQhIGSoePQhGC5Avl4w"),
                        "CONTROLLER"),
                Arguments.of(
                        "voters in Kafka's hash order, IPv6, names, no host",
                        Optional.empty(),
                        List.of(),
                        Optional.of(FIVE_VOTERS),
                        "CONTROLLER"),
                Arguments.of(
                        "a lower-case listener name",
                        Optional.empty(),
                        List.of(),
                        Optional.of("7@10.0.0.7:19093:0XYIQhIGSoePQhGC5Avl4w"),
                        "controller"),
                Arguments.of("no initial controllers", Optional.empty(), List.of(), Optional.empty(), "CONTROLLER"),
                Arguments.of(
                        "the oldest release: only metadata.version",
                        Optional.of("3.3-IV3"),
                        List.of(),
                        Optional.of("0@h:1:0XYIQhIGSoePQhGC5Avl4w"),
                        "CONTROLLER"),
                Arguments.of(
                        "features set and turned off",
                        Optional.of("4.1"),
                        List.of("group.version=0", "transaction.version=1", "eligible.leader.replicas.version=1"),
                        Optional.of("3@h:2:0XYIQhIGSoePQhGC5Avl4w"),
                        "CONTROLLER"),
                Arguments.of(
                        "metadata.version as a feature",
                        Optional.empty(),
                        List.of("metadata.version=21"),
                        Optional.empty(),
                        "CONTROLLER"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void theSnapshotIsKafkasByteForByte(
            String name,
            Optional<String> release,
            List<String> featureArgs,
            Optional<String> initialControllers,
            String listener)
            throws Exception {
        BootstrapFeatures features = BootstrapFeatures.resolve(release, featureArgs);

        ByteBuffer ours = BootstrapSnapshot.encode(
                NOW, features, List.of(), initialControllers.map(DynamicVoters::parse), listener);
        Path theirs = KafkaSnapshots.write(
                dir, NOW, features.metadataVersion(), features.levels(), initialControllers, listener);

        assertArrayEquals(Files.readAllBytes(theirs), bytes(ours));
    }

    @Test
    void writtenWhereAndAsKafkaWritesItAndReadByKafka() throws Exception {
        BootstrapFeatures features = BootstrapFeatures.resolve(Optional.empty(), List.of());
        Optional<String> voters = Optional.of(FIVE_VOTERS);
        Path theirs = KafkaSnapshots.write(
                dir.resolve("kafka"), NOW, features.metadataVersion(), features.levels(), voters, "CONTROLLER");

        Path krabka = dir.resolve("krabka");
        BootstrapSnapshot.write(
                krabka,
                BootstrapSnapshot.encode(NOW, features, List.of(), voters.map(DynamicVoters::parse), "CONTROLLER"));

        Path ours = krabka.resolve("__cluster_metadata-0").resolve("00000000000000000000-0000000000.checkpoint");
        try (Stream<Path> files = Files.list(ours.getParent())) {
            assertEquals(List.of(ours), files.toList(), "the snapshot alone, no partial file");
        }
        assertEquals("r--------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ours)));
        assertEquals(Files.getPosixFilePermissions(theirs), Files.getPosixFilePermissions(ours));
        List<String> read = KafkaSnapshots.read(ours);
        assertEquals(KafkaSnapshots.read(theirs), read);
        assertEquals("lastContainedLogTimestamp " + NOW, read.getFirst());
        assertTrue(read.get(1).startsWith("control: [ControlRecord(recordType=SNAPSHOT_HEADER"), read.get(1));
        assertTrue(read.get(1).contains("KRAFT_VOTERS"), read.get(1));
        assertTrue(
                read.get(2)
                        .startsWith(
                                "data: [ApiMessageAndVersion(FeatureLevelRecord(name='metadata.version', featureLevel=33)"),
                read.get(2));
        assertTrue(read.get(3).startsWith("control: [ControlRecord(recordType=SNAPSHOT_FOOTER"), read.get(3));
        assertEquals(4, read.size());
    }

    @Test
    void writingAgainReplacesTheSnapshotOfAnInterruptedFormat() throws Exception {
        BootstrapFeatures features = BootstrapFeatures.resolve(Optional.empty(), List.of());
        BootstrapSnapshot.write(
                dir, BootstrapSnapshot.encode(NOW, features, List.of(), Optional.empty(), "CONTROLLER"));
        ByteBuffer second = BootstrapSnapshot.encode(NOW + 1, features, List.of(), Optional.empty(), "CONTROLLER");

        BootstrapSnapshot.write(dir, second);

        assertArrayEquals(
                bytes(second),
                Files.readAllBytes(
                        dir.resolve("__cluster_metadata-0").resolve("00000000000000000000-0000000000.checkpoint")));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
