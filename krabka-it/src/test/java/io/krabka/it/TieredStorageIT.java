package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiered storage end to end: Krabka's broker (the distribution, in its own process) with the {@code local} remote
 * tier and the {@code inmemory} metadata manager, driven by the real Java client. Closed segments move to the tier,
 * the local log shrinks to its active segment, a consumer from the earliest offset reads across the boundary, a
 * restart or a kill in the middle of the copies leaves neither gap nor duplicate, and remote retention deletes what
 * it should and nothing more.
 */
class TieredStorageIT {
    private static final Pattern SEGMENT = Pattern.compile("(\\d{20})\\.log");

    @TempDir
    Path work;

    private KrabkaBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private KrabkaBroker start(Map<String, String> extra) throws Exception {
        Path tier = Files.createDirectories(work.resolve("tier"));
        Map<String, String> settings = new HashMap<>(Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "local",
                "rsm.config.dir", tier.toString(),
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.manager.task.interval.ms", "500",
                "log.retention.check.interval.ms", "500"));
        settings.putAll(extra);
        broker = KrabkaBroker.start(work.resolve("broker"), settings);
        return broker;
    }

    @Test
    void closedSegmentsMoveToTheTierAndAConsumerFromTheEarliestReadsEveryRecordAcrossTheBoundary() throws Exception {
        start(Map.of());
        TopicPartition partition = new TopicPartition("tiered", 0);
        TopicIdPartition idPartition = createTieredTopic(partition, Map.of("segment.bytes", "4194304"));
        long records = TieredRecords.count(200);
        TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());

        long activeBase = awaitOnlyTheActiveSegmentLocally(partition, records);
        assertEquals(0, offset(partition, OffsetSpec.earliest()));
        assertEquals(activeBase, offset(partition, OffsetSpec.earliestLocal()));
        assertEquals(records, offset(partition, OffsetSpec.latest()));
        List<RemoteLogSegmentMetadata> segments = RemoteTier.segments(broker.tieredStorageDir(), idPartition, work);
        RemoteTier.assertExactlyCovers(segments, 0, activeBase - 1, work.resolve("tier"), idPartition);
        assertTrue(segments.size() >= 45, "200 MiB in 4 MiB segments: " + segments.size());

        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
        String metrics = broker.metrics();
        assertTrue(counter(metrics, "remotecopybytespersec_count", "tiered") >= 190L * 1024 * 1024, metrics);
        assertEquals(segments.size(), counter(metrics, "remotecopyrequestspersec_count", "tiered"), metrics);
        assertEquals(0, counter(metrics, "remotecopyerrorspersec_count", "tiered"), metrics);
        assertTrue(counter(metrics, "remotefetchbytespersec_count", "tiered") >= 190L * 1024 * 1024, metrics);
        assertEquals(0, counter(metrics, "remotecopylagsegments_value", "tiered"), metrics);
    }

    @Test
    void aRestartAndAKillInTheMiddleOfTheCopiesLeaveNeitherGapNorDuplicate() throws Exception {
        // A slow copy quota holds the copies in progress while the broker is stopped and killed.
        start(Map.of("remote.log.manager.copy.max.bytes.per.second", String.valueOf(4 * 1024 * 1024)));
        TopicPartition partition = new TopicPartition("interrupted", 0);
        TopicIdPartition idPartition = createTieredTopic(partition, Map.of("segment.bytes", "1048576"));
        long records = TieredRecords.count(48);
        TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());

        TieredRecords.await(
                "a first segment in the tier", () -> !finished(idPartition).isEmpty());
        int beforeStop = finished(idPartition).size();
        int exit = broker.stop();
        assertEquals(0, exit, () -> "a clean stop in the middle of the copies:\n" + describe(broker));
        broker.start();
        // The quota's first windows let a burst through after the start, as Kafka's: kill once copies resumed.
        TieredRecords.await(
                "copies resumed after the restart", () -> finished(idPartition).size() > beforeStop);
        broker.kill();
        broker.start();

        long activeBase = awaitOnlyTheActiveSegmentLocally(partition, records);
        // The copy the kill cut short is deleted by the restarted broker's first runs.
        TieredRecords.await(
                "the copy cut short cleaned up",
                () -> RemoteTier.segments(broker.tieredStorageDir(), idPartition, work).stream()
                        .allMatch(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED
                                || s.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED));
        RemoteTier.assertExactlyCovers(
                RemoteTier.segments(broker.tieredStorageDir(), idPartition, work),
                0,
                activeBase - 1,
                work.resolve("tier"),
                idPartition);
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
    }

    @Test
    void remoteRetentionByTimeAndBySizeDeletesWhatItShouldAndNothingMore() throws Exception {
        start(Map.of());
        TopicPartition partition = new TopicPartition("retained", 0);
        TopicIdPartition idPartition = createTieredTopic(partition, Map.of("segment.bytes", "1048576"));
        long records = TieredRecords.count(24);
        long twoDaysAgo = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);
        // The first half written two days ago (by create time), the second half now.
        TieredRecords.produce(
                broker.bootstrapServers(),
                partition,
                0,
                records,
                n -> n < records / 2 ? twoDaysAgo + n : System.currentTimeMillis());
        long activeBase = awaitOnlyTheActiveSegmentLocally(partition, records);
        List<RemoteLogSegmentMetadata> tiered = finished(idPartition);

        // retention.ms of one day: exactly the segments whose newest record is older than a day go.
        long dayAgo = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(1);
        List<RemoteLogSegmentMetadata> kept =
                tiered.stream().filter(s -> s.maxTimestampMs() >= dayAgo).toList();
        assertTrue(kept.size() < tiered.size() && !kept.isEmpty(), "old segments and new: " + tiered);
        alterTopic(partition.topic(), "retention.ms", String.valueOf(TimeUnit.DAYS.toMillis(1)));
        long keptFrom = kept.getFirst().startOffset();
        awaitLogStart(partition, idPartition, keptFrom);
        RemoteTier.assertExactlyCovers(
                RemoteTier.segments(broker.tieredStorageDir(), idPartition, work),
                keptFrom,
                activeBase - 1,
                work.resolve("tier"),
                idPartition);
        assertEquals(kept, finished(idPartition), "the kept segments untouched");
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, keptFrom, records);

        // retention.bytes that the three oldest kept segments breach: those three go, and nothing more.
        long activeSize = Files.size(localSegments(partition).getLast());
        long total = kept.stream()
                        .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                        .sum()
                + activeSize;
        long threeOldest = kept.stream()
                .limit(3)
                .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                .sum();
        alterTopic(partition.topic(), "retention.bytes", String.valueOf(total - threeOldest));
        long sizeFrom = kept.get(3).startOffset();
        awaitLogStart(partition, idPartition, sizeFrom);
        RemoteTier.assertExactlyCovers(
                RemoteTier.segments(broker.tieredStorageDir(), idPartition, work),
                sizeFrom,
                activeBase - 1,
                work.resolve("tier"),
                idPartition);
        assertEquals(kept.subList(3, kept.size()), finished(idPartition));
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, sizeFrom, records);
    }

    @Test
    void deletingATopicDeletesItsRemoteData() throws Exception {
        start(Map.of());
        TopicPartition partition = new TopicPartition("deleted", 0);
        TopicIdPartition idPartition = createTieredTopic(partition, Map.of("segment.bytes", "1048576"));
        long records = TieredRecords.count(8);
        TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());
        awaitOnlyTheActiveSegmentLocally(partition, records);
        assertTrue(TierSegment.scan(work.resolve("tier")).stream()
                .anyMatch(s -> s.partition().equals(idPartition)));

        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(partition.topic())).all().get(1, TimeUnit.MINUTES);
        }
        Path partitionDir = work.resolve("tier")
                .resolve(TierSegment.ROOT_DIR_NAME)
                .resolve(partition.topic() + "-" + partition.partition() + "-" + idPartition.topicId());
        TieredRecords.await("the tier emptied of the deleted topic", () -> {
            try (Stream<Path> files = Files.exists(partitionDir) ? Files.list(partitionDir) : Stream.empty()) {
                return files.findAny().isEmpty();
            }
        });
        TieredRecords.await(
                "the metadata of the deleted topic forgotten",
                () -> RemoteTier.segments(broker.tieredStorageDir(), idPartition, work)
                        .isEmpty());
    }

    /**
     * Waits until the log starts at {@code offset} and remote retention finished deleting what is below it (the log
     * start moves first, as Kafka's, so that no fetch reads a segment being deleted).
     */
    private void awaitLogStart(TopicPartition partition, TopicIdPartition idPartition, long offset) throws Exception {
        TieredRecords.await(
                "the log starting at " + offset + ", the segments below deleted",
                () -> offset(partition, OffsetSpec.earliest()) == offset
                        && RemoteTier.segments(broker.tieredStorageDir(), idPartition, work).stream()
                                .allMatch(s -> (s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED
                                                && s.startOffset() >= offset)
                                        || s.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED));
    }

    private static String describe(KrabkaBroker broker) {
        try {
            return broker.describe();
        } catch (IOException e) {
            return "(its output cannot be read: " + e + ")";
        }
    }

    private TopicIdPartition createTieredTopic(TopicPartition partition, Map<String, String> configs) throws Exception {
        Map<String, String> all = new HashMap<>(Map.of("remote.storage.enable", "true", "local.retention.bytes", "1"));
        all.putAll(configs);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1).configs(all)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            org.apache.kafka.common.Uuid id = admin.describeTopics(List.of(partition.topic()))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get(partition.topic())
                    .topicId();
            return new TopicIdPartition(Uuid.fromString(id.toString()), partition.topic(), partition.partition());
        }
    }

    private void alterTopic(String topic, String key, String value) throws Exception {
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, topic),
                            List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
        }
    }

    /** Waits until every closed segment is in the tier and gone from the local log; the active segment's base. */
    private long awaitOnlyTheActiveSegmentLocally(TopicPartition partition, long records) throws Exception {
        TieredRecords.await("only the active segment left locally, the rest tiered", () -> {
            List<Path> local = localSegments(partition);
            return local.size() == 1
                    && offset(partition, OffsetSpec.latestTiered()) == base(local.getFirst()) - 1
                    && offset(partition, OffsetSpec.latest()) == records;
        });
        return base(localSegments(partition).getFirst());
    }

    private List<RemoteLogSegmentMetadata> finished(TopicIdPartition partition) throws Exception {
        return RemoteTier.inState(
                RemoteTier.segments(broker.tieredStorageDir(), partition, work),
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
    }

    private List<Path> localSegments(TopicPartition partition) throws IOException {
        try (Stream<Path> files =
                Files.list(broker.logDir().resolve(partition.topic() + "-" + partition.partition()))) {
            return files.filter(f -> SEGMENT.matcher(f.getFileName().toString()).matches())
                    .sorted()
                    .toList();
        }
    }

    private static long base(Path segment) {
        Matcher matcher = SEGMENT.matcher(segment.getFileName().toString());
        if (!matcher.matches()) {
            throw new AssertionError("not a segment: " + segment);
        }
        return Long.parseLong(matcher.group(1));
    }

    private long offset(TopicPartition partition, OffsetSpec spec) throws Exception {
        try (Admin admin = admin()) {
            return admin.listOffsets(Map.of(partition, spec))
                    .partitionResult(partition)
                    .get(1, TimeUnit.MINUTES)
                    .offset();
        }
    }

    /** The value of a Prometheus sample of the broker's metrics for a topic, 0 when absent. */
    static long counter(String metrics, String series, String topic) {
        Matcher matcher = Pattern.compile(
                        "_" + Pattern.quote(series) + "\\{topic=\"" + Pattern.quote(topic) + "\"\\} ([0-9.E]+)")
                .matcher(metrics);
        return matcher.find() ? (long) Double.parseDouble(matcher.group(1)) : 0;
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) Duration.ofMinutes(1).toMillis()));
    }
}
