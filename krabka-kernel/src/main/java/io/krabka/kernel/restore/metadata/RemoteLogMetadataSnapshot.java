package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.plugin.PluginLoadException;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.DiscoveredArchive;
import io.krabka.kernel.restore.MetadataDisagreementException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.report.RemoteLogMetadataReport;
import io.krabka.kernel.restore.report.SkippedSegment;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The old cluster's remote log metadata ({@code --rlmm-snapshot}): a snapshot file of the {@code inmemory} plugin,
 * loaded by that plugin, from a private copy, and asked through the SPI which segments the old cluster had, in
 * what state. It tells the archive's live segments from those the cluster deleted, and names the topics of the
 * legacy layout. Close it to delete the copy.
 */
public final class RemoteLogMetadataSnapshot implements AutoCloseable {
    /** The plugin whose snapshots these are. */
    public static final String PLUGIN = "inmemory";
    /** The plugin's setting naming its snapshot file. */
    static final String SNAPSHOT_PATH = "snapshot.path";

    private static final Comparator<TopicIdPartition> BY_NAME = Comparator.comparing(TopicIdPartition::topic)
            .thenComparingInt(TopicIdPartition::partition)
            .thenComparing(TopicIdPartition::topicId);

    private final Path file;
    private final PrivateSnapshotCopy copy;
    private final RemoteLogMetadataManager metadata;
    // By name, so that the first disagreement found is the same every time.
    private final List<TopicIdPartition> partitions;
    private final Map<Uuid, String> topics;

    private RemoteLogMetadataSnapshot(
            Path file,
            PrivateSnapshotCopy copy,
            RemoteLogMetadataManager metadata,
            List<TopicIdPartition> partitions,
            Map<Uuid, String> topics) {
        this.file = file;
        this.copy = copy;
        this.metadata = metadata;
        this.partitions = partitions;
        this.topics = topics;
    }

    /**
     * Loads the snapshot {@code file} (with its journal, if one is beside it) through the {@code inmemory} plugin of
     * {@code plugins}. The file is never written: the plugin works on a private copy.
     *
     * @throws InvalidRestoreArgumentException if the file is missing or invalid, or there is no {@code inmemory}
     *                                         plugin; the message names the file
     */
    public static RemoteLogMetadataSnapshot load(PluginRegistry plugins, Path file)
            throws InvalidRestoreArgumentException {
        if (!Files.isRegularFile(file)) {
            throw invalid(file, "no such file");
        }
        PrivateSnapshotCopy copy;
        try {
            copy = PrivateSnapshotCopy.of(file);
        } catch (IOException e) {
            throw invalid(file, "cannot be copied: " + e.getMessage());
        }
        Map<String, String> settings = Map.of(SNAPSHOT_PATH, copy.snapshot().toString());
        try {
            // Closing writes the whole cache, the journal's changes merged in, to the copy: the list of partitions
            // is read from that.
            plugins.createRemoteLogMetadataManager(PLUGIN, settings).close();
            Set<TopicIdPartition> partitions = SnapshotPartitions.read(copy.snapshot());
            Map<Uuid, String> topics = new HashMap<>();
            for (TopicIdPartition partition : partitions) {
                String other = topics.putIfAbsent(partition.topicId(), partition.topic());
                if (other != null && !other.equals(partition.topic())) {
                    throw invalid(
                            file,
                            "topic id " + partition.topicId() + " is named both '" + other + "' and '"
                                    + partition.topic() + "'");
                }
            }
            return new RemoteLogMetadataSnapshot(
                    file,
                    copy,
                    plugins.createRemoteLogMetadataManager(PLUGIN, settings),
                    partitions.stream().sorted(BY_NAME).toList(),
                    Map.copyOf(topics));
        } catch (InvalidRestoreArgumentException e) {
            copy.deleteAfter(e);
            throw e;
        } catch (PluginLoadException | ConfigException | IOException | IllegalArgumentException e) {
            // The plugin's messages name the copy, which the operator never saw.
            String copied = copy.snapshot().toString();
            InvalidRestoreArgumentException invalid =
                    invalid(file, reason(e).replace(copied + ": ", "").replace(copied, file.toString()));
            copy.deleteAfter(invalid);
            throw invalid;
        }
    }

    /**
     * The archive without the segments the old cluster deleted or never finished copying, its legacy partitions
     * named, with what was left out and why.
     *
     * @throws MetadataDisagreementException if the archive and the metadata disagree about a segment: a segment
     *                                       whose log is in the archive is unknown to the metadata or deleted, a
     *                                       readable one of the metadata is not in the archive, or a legacy
     *                                       partition's topic id is unknown to the metadata
     */
    public Reconciliation reconcile(DiscoveredArchive archive) throws MetadataDisagreementException {
        List<ArchivedPartition> kept = new ArrayList<>();
        List<SkippedSegment> leftOut = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<TopicIdPartition> archived = new HashSet<>();
        int deleted = 0;
        for (ArchivedPartition partition : archive.partitions()) {
            Optional<String> topic = partition.topic().or(() -> Optional.ofNullable(topics.get(partition.topicId())));
            if (topic.isEmpty()) {
                throw new MetadataDisagreementException(
                        partition.directory(),
                        "a legacy-layout partition of topic id " + partition.topicId()
                                + ", which the remote log metadata does not know");
            }
            if (partition.topic().isEmpty()) {
                notes.add("legacy partition " + partition.directory() + " is of topic '" + topic.get()
                        + "', as the remote log metadata names it");
            }
            TopicIdPartition id = new TopicIdPartition(partition.topicId(), topic.get(), partition.partition());
            archived.add(id);
            PartitionReconciliation reconciled = PartitionReconciliation.of(partition, topic.get(), segments(id));
            kept.add(reconciled.partition());
            leftOut.addAll(reconciled.leftOut());
            deleted += reconciled.deleted();
        }
        for (TopicIdPartition partition : partitions) {
            if (!archived.contains(partition)) {
                PartitionReconciliation.requireNoneReadable(partition.toString(), segments(partition));
            }
        }
        return new Reconciliation(
                new DiscoveredArchive(
                        archive.location(),
                        archive.prefix(),
                        kept,
                        archive.unrecognizedKeys(),
                        archive.unrecognizedSample()),
                leftOut,
                new RemoteLogMetadataReport(Optional.of(file.toString()), deleted, notes));
    }

    /** Closes the plugin and deletes the private copy. */
    @Override
    public void close() throws IOException {
        try {
            metadata.close();
        } finally {
            copy.close();
        }
    }

    private List<RemoteLogSegmentMetadata> segments(TopicIdPartition partition) {
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        try {
            metadata.listRemoteLogSegments(partition).forEachRemaining(segments::add);
        } catch (RemoteResourceNotFoundException e) {
            // A partition the old cluster's metadata never had: it has no segments.
        } catch (RemoteStorageException e) {
            // The plugin answers from memory: only an unknown partition fails a listing.
            throw new IllegalStateException(
                    "the " + PLUGIN + " plugin failed to list " + partition + ": " + e.getMessage(), e);
        }
        return segments;
    }

    private static String reason(Exception e) {
        // The plugin's ConfigException names its setting; the cause it carries says what is wrong with the file.
        Throwable why = e instanceof ConfigException && e.getCause() != null ? e.getCause() : e;
        return String.valueOf(why.getMessage()).replaceAll("\\R+", " ");
    }

    private static InvalidRestoreArgumentException invalid(Path file, String reason) {
        return new InvalidRestoreArgumentException("--rlmm-snapshot " + file + ": " + reason);
    }
}
