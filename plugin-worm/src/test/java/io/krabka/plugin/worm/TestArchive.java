package io.krabka.plugin.worm;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.testkit.ObjectStores;
import io.krabka.testkit.RecordingPluginMetrics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * A write-once archive over the real {@code local} store, with what a broker would hand it: the segments' metadata
 * as a metadata manager keeps it (the test records each copy's receipt), and counters for its metrics.
 */
final class TestArchive implements RemoteStorageContext {
    final Path dir;
    final ObjectStore store;
    final List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
    final RecordingPluginMetrics metrics = new RecordingPluginMetrics();
    final Path signingKey;
    final KeyPair keyPair;

    TestArchive(Path dir) throws Exception {
        this.dir = dir;
        this.store = ObjectStores.open(
                "local",
                Map.of("dir", Files.createDirectories(dir.resolve("store")).toString()));
        this.keyPair = ed25519();
        this.signingKey =
                Files.write(dir.resolve("signing.pk8"), keyPair.getPrivate().getEncoded());
    }

    /** The settings of an archive on the local store, signed, with the broker's limit raised for the receipt. */
    Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put("store", "local");
        settings.put("allow.unenforced.retention", "true");
        settings.put("signing.key.path", signingKey.toString());
        settings.put("signing.key.id", "test-key");
        settings.put("remote.log.metadata.custom.metadata.max.bytes", "1024");
        return settings;
    }

    WormRemoteStorageManager open(Map<String, Object> settings) {
        WormRemoteStorageManager rsm = new WormRemoteStorageManager(this);
        rsm.configure(settings);
        return rsm;
    }

    /** A new segment's metadata as the broker stamps it before the copy. */
    static RemoteLogSegmentMetadata segment(TopicIdPartition partition, long start, long end, int size) {
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(0, start);
        return new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(partition),
                start,
                end,
                1_700_000_000_000L,
                1,
                1_700_000_001_000L,
                size,
                epochs,
                true);
    }

    /** Local files of a segment: random bytes, as a closed segment's are fixed bytes. */
    LogSegmentData files(RemoteLogSegmentMetadata metadata, long seed) throws IOException {
        Path local = Files.createDirectories(
                dir.resolve("local-" + metadata.remoteLogSegmentId().id()));
        Random random = new Random(seed);
        return new LogSegmentData(
                write(local.resolve("s.log"), random, metadata.segmentSizeInBytes()),
                write(local.resolve("s.index"), random, 80),
                write(local.resolve("s.timeindex"), random, 120),
                Optional.empty(),
                write(local.resolve("s.snapshot"), random, 40),
                ByteBuffer.wrap("0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII)));
    }

    /** What the broker's metadata manager records when a copy finishes: the segment with its receipt. */
    RemoteLogSegmentMetadata finished(RemoteLogSegmentMetadata started, Optional<CustomMetadata> receipt) {
        RemoteLogSegmentMetadata done = started.createWithUpdates(new RemoteLogSegmentMetadataUpdate(
                started.remoteLogSegmentId(),
                started.eventTimestampMs() + 1,
                receipt,
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                1));
        segments.add(done);
        return done;
    }

    long count(String name) {
        return metrics.count(name);
    }

    @Override
    public ObjectStore objectStore() {
        return store;
    }

    @Override
    public String objectStoreName() {
        return "local";
    }

    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition) {
        return segments.stream()
                .filter(s -> s.topicIdPartition().equals(topicIdPartition))
                .toList()
                .iterator();
    }

    @Override
    public PluginMetrics metrics() {
        return metrics;
    }

    private static Path write(Path file, Random random, int size) throws IOException {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return Files.write(file, bytes);
    }

    private static KeyPair ed25519() throws NoSuchAlgorithmException {
        return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    }
}
