package io.krabka.kernel.restore;

import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.format.FormatPlan;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.FormattedDirectory;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.log.LocalLog;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.bound.PartitionArgument;
import io.krabka.kernel.restore.materialize.ClusterMetadataLog;
import io.krabka.kernel.restore.materialize.Fsync;
import io.krabka.kernel.restore.materialize.RestoredTopic;
import io.krabka.kernel.restore.materialize.WrittenPartition;
import io.krabka.kernel.restore.metadata.ClusterMetadataSnapshot;
import io.krabka.kernel.restore.metadata.Reconciliation;
import io.krabka.kernel.restore.report.MetadataRestoreReport;
import io.krabka.kernel.restore.report.PartitionReport;
import io.krabka.kernel.restore.report.RestoreReport;
import io.krabka.kernel.restore.report.SkippedSegment;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code krabka restore}'s driver: runs the five stages — discover, verify, bound, materialize, report — over an
 * archive read through an {@link ObjectStore}, while no broker runs, and writes a bootable log directory.
 */
public final class ArchiveRestore {
    /** Where partitions are written before they are moved into place, inside the target. */
    static final String STAGING = ".krabka-restore";
    // Set on every restored topic: nothing restored expires, whatever the old cluster's retention was, until the
    // operator sets retention again; a restored partition is local, so the tiering settings do not apply.
    private static final Map<String, String> RETENTION = Map.of("retention.ms", "-1", "retention.bytes", "-1");
    private static final Set<String> TIERING = Set.of(
            "remote.storage.enable",
            "local.retention.ms",
            "local.retention.bytes",
            "remote.log.copy.disable",
            "remote.log.delete.on.disable");
    static final String RETENTION_NOTE = "retention: retention.ms and retention.bytes are -1 on every restored topic,"
            + " so nothing restored expires, and the tiering configs (remote.storage.enable, local.retention.*) are left"
            + " out: set them again once the restored cluster is checked";
    private static final Comparator<TopicPartition> BY_NAME =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final Clock clock;

    /** A restore stamping the cluster metadata with {@code clock}'s time. */
    public ArchiveRestore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Checks that {@code logDir} is absent or empty, before anything else happens: a restore never writes over a
     * directory, and one that holds anything is left untouched.
     *
     * @throws LogDirNotEmptyException if it holds anything or is not a directory
     * @throws MaterializeException    if it cannot be read
     */
    public static void checkTarget(Path logDir) throws LogDirNotEmptyException, MaterializeException {
        if (!Files.exists(logDir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(logDir, LinkOption.NOFOLLOW_LINKS)) {
            throw new LogDirNotEmptyException(logDir);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir)) {
            for (Path entry : entries) {
                throw new LogDirNotEmptyException(logDir, entry.getFileName().toString());
            }
        } catch (IOException e) {
            throw new MaterializeException("cannot read the log directory " + logDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Restores what {@code request} names from {@code store}.
     *
     * @throws RestoreException naming the first failure; nothing is left in the target that a broker would start on
     */
    public RestoreReport restore(ObjectStore store, RestoreRequest request, RestoreProgress progress)
            throws RestoreException {
        RestoreTarget target = request.target();
        checkTarget(target.logDir());
        FormatPlan plan = plan(target);
        Reconciliation reconciled = reconcile(discover(store, request), request);
        Selection selection = select(reconciled, request);
        progress.started(selection.partitions().size(), selection.bytes());
        boolean created = !Files.exists(target.logDir(), LinkOption.NOFOLLOW_LINKS);
        try {
            return materialize(store, request, plan, selection, progress);
        } catch (RestoreException | IOException | RuntimeException e) {
            RestoreException failure = e instanceof RestoreException restore
                    ? restore
                    : new MaterializeException("writing " + target.logDir() + " failed: " + e.getMessage(), e);
            removeWritten(target.logDir(), created, failure);
            throw failure;
        }
    }

    private static FormatPlan plan(RestoreTarget target) throws MaterializeException {
        FormatSpec spec = new FormatSpec(
                List.of(target.logDir()),
                target.logDir(),
                target.clusterId(),
                target.nodeId(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                target.quorum(),
                target.controllerListenerName(),
                false);
        try {
            return new Formatter(Clock.systemUTC()).plan(spec);
        } catch (FormatException e) {
            throw new MaterializeException("formatting " + target.logDir() + ": " + e.getMessage(), e);
        }
    }

    private static DiscoveredArchive discover(ObjectStore store, RestoreRequest request)
            throws UnreadableArchiveException {
        DiscoveredArchive archive;
        try {
            archive = ArchiveDiscovery.discover(store, request.layout());
        } catch (RemoteStorageException e) {
            throw new UnreadableArchiveException(
                    "cannot list the archive " + store.location() + ": " + e.getMessage(), e);
        }
        if (archive.isEmpty()) {
            throw new UnreadableArchiveException("the archive " + store.location() + " holds no segment"
                    + (request.layout().keyPrefix().isEmpty()
                            ? ""
                            : " under the prefix '" + request.layout().keyPrefix() + "'"));
        }
        return archive;
    }

    // With the old cluster's remote log metadata, the segments it deleted are left out and legacy topics named.
    private static Reconciliation reconcile(DiscoveredArchive archive, RestoreRequest request)
            throws MetadataDisagreementException {
        return request.remoteLogMetadata().isPresent()
                ? request.remoteLogMetadata().get().reconcile(archive)
                : Reconciliation.withoutSnapshot(archive);
    }

    /** The archive's partitions to restore, each under its topic's name. */
    private record Selection(Reconciliation reconciliation, Map<ArchivedPartition, String> partitions, long bytes) {}

    private static Selection select(Reconciliation reconciliation, RestoreRequest request)
            throws InvalidRestoreArgumentException {
        Map<ArchivedPartition, String> partitions = new LinkedHashMap<>();
        Map<String, Uuid> ids = new HashMap<>();
        long bytes = 0;
        for (ArchivedPartition partition : reconciliation.archive().partitions()) {
            // Reconciliation names every partition it keeps.
            String topic = partition.topic().orElseThrow();
            if (!request.topics().isEmpty() && !request.topics().contains(topic)) {
                continue;
            }
            Uuid previous = ids.putIfAbsent(topic, partition.topicId());
            if (previous != null && !previous.equals(partition.topicId())) {
                throw new InvalidRestoreArgumentException(
                        "the archive holds two topics named " + topic + " (ids " + previous
                                + " and " + partition.topicId()
                                + "): one was deleted and made again, and a restored cluster can"
                                + " hold only one; restore under another --archive-prefix or remove one from a copy of the archive");
            }
            partitions.put(partition, topic);
            bytes += partition.segments().stream()
                    .flatMap(segment -> segment.object(SegmentArtifact.SEGMENT).stream())
                    .mapToLong(io.krabka.spi.objectstore.StoredObject::size)
                    .sum();
        }
        Set<String> missing = new TreeSet<>(request.topics());
        missing.removeAll(ids.keySet());
        if (!missing.isEmpty()) {
            throw new InvalidRestoreArgumentException(
                    "--topic " + String.join(", ", missing) + ": the archive holds no such topic");
        }
        Set<TopicPartition> archived = partitions.entrySet().stream()
                .map(entry ->
                        new TopicPartition(entry.getValue(), entry.getKey().partition()))
                .collect(Collectors.toSet());
        List<PartitionArgument> unknown = request.bounds().unknownPartitions(archived);
        if (!unknown.isEmpty()) {
            throw new InvalidRestoreArgumentException(unknown.getFirst().flag() + " "
                    + unknown.getFirst().partition().topic() + ":"
                    + unknown.getFirst().partition().partition() + ": the archive holds no such partition");
        }
        return new Selection(reconciliation, partitions, bytes);
    }

    private RestoreReport materialize(
            ObjectStore store, RestoreRequest request, FormatPlan plan, Selection selection, RestoreProgress progress)
            throws RestoreException, IOException {
        Path logDir = request.target().logDir();
        Path staging = logDir.resolve(STAGING);
        Files.createDirectories(staging);
        ExecutorService pool = Executors.newFixedThreadPool(
                request.parallelism(),
                Thread.ofPlatform().name("restore-", 0).daemon().factory());
        List<PartitionRestore.Outcome> outcomes;
        try {
            outcomes = restorePartitions(store, request, selection, staging, progress, pool);
            FormattedDirectory formatted = plan.result().formatted().getFirst();
            List<RestoredTopic> topics = topics(outcomes, request.clusterMetadata());
            if (request.clusterMetadata().isPresent()) {
                request.clusterMetadata()
                        .get()
                        .check(topics.stream().collect(Collectors.toMap(RestoredTopic::name, RestoredTopic::topicId)));
            }
            ClusterMetadataLog.write(
                    staging.resolve(ClusterMetadataLog.DIRECTORY),
                    plan.result().features().records(),
                    plan.result().features().metadataVersion(),
                    request.target().nodeId(),
                    formatted.directoryId(),
                    topics,
                    clock);
            // Everything on disk before anything is in place.
            Fsync.tree(staging, pool);
        } finally {
            shutdown(pool);
        }
        Map<TopicPartition, Long> logStart = new TreeMap<>(BY_NAME);
        Map<TopicPartition, Long> logEnd = new TreeMap<>(BY_NAME);
        for (PartitionRestore.Outcome outcome : outcomes) {
            if (outcome.written().isPresent()) {
                WrittenPartition written = outcome.written().get();
                Files.move(written.dir(), logDir.resolve(written.dir().getFileName()), StandardCopyOption.ATOMIC_MOVE);
                logStart.put(written.partition(), written.logStartOffset());
                logEnd.put(written.partition(), written.logEndOffset());
            }
        }
        Files.move(
                staging.resolve(ClusterMetadataLog.DIRECTORY),
                logDir.resolve(ClusterMetadataLog.DIRECTORY),
                StandardCopyOption.ATOMIC_MOVE);
        Files.delete(staging);
        Fsync.force(logDir, StandardOpenOption.READ);
        // Recovered up to the end, and every record committed: a broker neither recovers nor truncates on start.
        new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE)).write(logEnd);
        new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.REPLICATION_OFFSET_CHECKPOINT_FILE)).write(logEnd);
        new OffsetCheckpointFile(logDir.resolve(OffsetCheckpointFile.LOG_START_OFFSET_CHECKPOINT_FILE)).write(logStart);
        try {
            new Formatter(clock).write(plan);
        } catch (FormatException e) {
            throw new MaterializeException(e.getMessage(), e);
        }
        return report(request, selection, outcomes);
    }

    private static RestoreReport report(
            RestoreRequest request, Selection selection, List<PartitionRestore.Outcome> outcomes) {
        Reconciliation reconciliation = selection.reconciliation();
        List<SkippedSegment> skipped = new ArrayList<>(reconciliation.leftOut());
        outcomes.forEach(outcome -> skipped.addAll(outcome.skipped()));
        List<PartitionReport> partitions = outcomes.stream()
                .map(PartitionRestore.Outcome::report)
                .sorted(Comparator.comparing(PartitionReport::topic).thenComparingInt(PartitionReport::partition))
                .toList();
        Set<String> topicNames = new TreeSet<>(selection.partitions().values());
        MetadataRestoreReport metadata = request.clusterMetadata()
                .map(snapshot -> snapshot.report(topicNames))
                .orElseGet(() -> ClusterMetadataSnapshot.withoutSnapshot(topicNames));
        List<String> notRecovered = new ArrayList<>(metadata.notRecovered());
        notRecovered.add(RETENTION_NOTE);
        metadata = new MetadataRestoreReport(
                metadata.snapshot(),
                metadata.topicConfigs(),
                metadata.accessControlEntries(),
                metadata.clientQuotas(),
                metadata.scramCredentials(),
                metadata.featureLevels(),
                metadata.topicsWithoutConfiguration(),
                notRecovered);
        return new RestoreReport(
                request.dryRun(),
                request.target().logDir(),
                request.target().clusterId(),
                request.authority().report(),
                metadata,
                reconciliation.report(),
                partitions,
                skipped,
                reconciliation.archive().unrecognizedKeys(),
                reconciliation.archive().unrecognizedSample());
    }

    private List<PartitionRestore.Outcome> restorePartitions(
            ObjectStore store,
            RestoreRequest request,
            Selection selection,
            Path staging,
            RestoreProgress progress,
            ExecutorService pool)
            throws RestoreException, IOException {
        PartitionRestore restore = new PartitionRestore(store, request, new SegmentVerifier(), progress, clock);
        List<Future<PartitionRestore.Outcome>> futures = new ArrayList<>();
        for (Map.Entry<ArchivedPartition, String> entry : selection.partitions().entrySet()) {
            Path dir = staging.resolve(entry.getValue() + "-" + entry.getKey().partition());
            futures.add(pool.submit(() -> restore.restore(entry.getKey(), entry.getValue(), dir)));
        }
        List<PartitionRestore.Outcome> outcomes = new ArrayList<>();
        for (Future<PartitionRestore.Outcome> future : futures) {
            outcomes.add(await(future));
        }
        return outcomes;
    }

    private static void shutdown(ExecutorService pool) {
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static PartitionRestore.Outcome await(Future<PartitionRestore.Outcome> future)
            throws RestoreException, IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("the restore was interrupted");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RestoreException restore -> throw restore;
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        }
    }

    private static List<RestoredTopic> topics(
            List<PartitionRestore.Outcome> outcomes, Optional<ClusterMetadataSnapshot> snapshot) {
        Map<String, Uuid> ids = new TreeMap<>();
        Map<String, TreeMap<Integer, Integer>> epochs = new TreeMap<>();
        for (PartitionRestore.Outcome outcome : outcomes) {
            PartitionReport report = outcome.report();
            ids.put(report.topic(), report.topicId());
            int epoch = outcome.written()
                    .flatMap(written -> written.latestEpoch().isPresent()
                            ? Optional.of(written.latestEpoch().getAsInt() + 1)
                            : Optional.empty())
                    .orElse(0);
            epochs.computeIfAbsent(report.topic(), topic -> new TreeMap<>()).put(report.partition(), epoch);
        }
        List<RestoredTopic> topics = new ArrayList<>();
        ids.forEach((name, id) -> topics.add(new RestoredTopic(
                name, id, configs(snapshot.map(s -> s.topicConfigs(name)).orElse(Map.of())), epochs.get(name))));
        return topics;
    }

    private static Map<String, String> configs(Map<String, String> old) {
        Map<String, String> configs = new HashMap<>(old);
        configs.keySet().removeAll(TIERING);
        configs.putAll(RETENTION);
        return configs;
    }

    // A failed restore leaves nothing a broker would start on: everything it wrote goes, and the directory too
    // when the restore made it (it was empty or absent at the start).
    private static void removeWritten(Path logDir, boolean created, RestoreException failure) {
        try {
            if (created) {
                LocalLog.deleteRecursively(logDir);
            } else if (Files.isDirectory(logDir, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> entries = Files.list(logDir)) {
                    for (Path entry : entries.toList()) {
                        LocalLog.deleteRecursively(entry);
                    }
                }
            }
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
