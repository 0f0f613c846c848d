package io.krabka.kernel.restore;

import io.krabka.archive.ArchiveLayout;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.objectstore.SegmentObjectKey;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The restore's first stage: lists an archive a page at a time and groups its keys into segment copies per
 * partition. Two layouts are read: the current one ({@code <topic>-<partition>-<topic id>/<start offset>-<segment
 * id>.<suffix>}, Kafka's LocalTieredStorage names under a prefix, with a write-once archive's {@code .manifest} and
 * {@code .abandoned} beside them) and the original Krabka's legacy one, up to its 0.3.8 ({@code <topic
 * uuid>_<partition>/<segment uuid>/<artifact>}, which names no topic and no offset). Keys of neither are counted,
 * with a sample.
 */
public final class ArchiveDiscovery {
    /** How many unrecognised keys the report shows. */
    public static final int SAMPLE = 20;

    private static final Pattern LEGACY =
            Pattern.compile("([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(\\d+)/"
                    + "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/"
                    + "(log|offset_index|time_index|producer_snapshot|leader_epoch|txn_index)");
    private static final Map<String, SegmentArtifact> LEGACY_ARTIFACTS = Map.of(
            "log",
            SegmentArtifact.SEGMENT,
            "offset_index",
            SegmentArtifact.OFFSET_INDEX,
            "time_index",
            SegmentArtifact.TIME_INDEX,
            "producer_snapshot",
            SegmentArtifact.PRODUCER_SNAPSHOT,
            "leader_epoch",
            SegmentArtifact.LEADER_EPOCH_CHECKPOINT,
            "txn_index",
            SegmentArtifact.TRANSACTION_INDEX);

    private ArchiveDiscovery() {}

    /**
     * The archive under the layout's prefix.
     *
     * @throws RemoteStorageException if the store cannot be listed
     */
    public static DiscoveredArchive discover(ObjectStore store, ArchiveLayout layout) throws RemoteStorageException {
        String prefix = layout.keyPrefix();
        Map<String, PartitionBuilder> partitions = new TreeMap<>();
        List<String> sample = new ArrayList<>();
        long unrecognized = 0;
        Optional<String> token = Optional.empty();
        do {
            ObjectListing page = store.list(prefix, token);
            for (StoredObject object : page.objects()) {
                if (!add(partitions, object, object.key().substring(prefix.length()))) {
                    unrecognized++;
                    if (sample.size() < SAMPLE) {
                        sample.add(object.key());
                    }
                }
            }
            token = page.nextPageToken();
        } while (token.isPresent());
        return new DiscoveredArchive(
                store.location(),
                layout.prefix(),
                partitions.values().stream().map(PartitionBuilder::build).toList(),
                unrecognized,
                sample);
    }

    /** Files an object under its partition and segment; false for a key of neither layout. */
    private static boolean add(Map<String, PartitionBuilder> partitions, StoredObject object, String relative) {
        Optional<SegmentObjectKey> current = SegmentObjectKey.parse(relative);
        if (current.isPresent()) {
            SegmentObjectKey key = current.get();
            SegmentBuilder segment = partitions
                    .computeIfAbsent(
                            key.partitionDirectory(),
                            dir -> new PartitionBuilder(
                                    dir,
                                    Optional.of(key.partition().topic()),
                                    key.partition().topicId(),
                                    key.partition().partition()))
                    .segment(key.segmentId(), OptionalLong.of(key.startOffset()));
            return switch (key.suffix()) {
                case ArchiveLayout.MANIFEST_SUFFIX -> segment.manifest(object);
                case ArchiveLayout.ABANDONED_SUFFIX -> segment.abandoned(object);
                default ->
                    SegmentArtifact.ofSuffix(key.suffix())
                            .map(a -> segment.artifact(a, object))
                            .orElse(false);
            };
        }
        Matcher legacy = LEGACY.matcher(relative);
        if (legacy.matches()) {
            String directory = legacy.group(1) + "_" + legacy.group(2);
            int partition;
            try {
                partition = Integer.parseInt(legacy.group(2));
            } catch (NumberFormatException e) {
                return false;
            }
            return partitions
                    .computeIfAbsent(
                            directory,
                            dir -> new PartitionBuilder(dir, Optional.empty(), uuid(legacy.group(1)), partition))
                    .segment(uuid(legacy.group(3)), OptionalLong.empty())
                    .artifact(LEGACY_ARTIFACTS.get(legacy.group(4)), object);
        }
        return false;
    }

    private static Uuid uuid(String hyphenated) {
        UUID uuid = UUID.fromString(hyphenated);
        return new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    /** A partition's copies as the listing finds them. */
    private static final class PartitionBuilder {
        private final String directory;
        private final Optional<String> topic;
        private final Uuid topicId;
        private final int partition;
        private final Map<Uuid, SegmentBuilder> segments = new TreeMap<>();

        PartitionBuilder(String directory, Optional<String> topic, Uuid topicId, int partition) {
            this.directory = directory;
            this.topic = topic;
            this.topicId = topicId;
            this.partition = partition;
        }

        SegmentBuilder segment(Uuid id, OptionalLong startOffset) {
            return segments.computeIfAbsent(id, s -> new SegmentBuilder(s, startOffset));
        }

        ArchivedPartition build() {
            return new ArchivedPartition(
                    directory,
                    topic,
                    topicId,
                    partition,
                    segments.values().stream().map(SegmentBuilder::build).toList());
        }
    }

    /** A copy's objects as the listing finds them; a second object of one role is no segment's. */
    private static final class SegmentBuilder {
        private final Uuid id;
        private final OptionalLong startOffset;
        private final Map<SegmentArtifact, StoredObject> objects = new EnumMap<>(SegmentArtifact.class);
        private StoredObject manifest;
        private StoredObject abandoned;

        SegmentBuilder(Uuid id, OptionalLong startOffset) {
            this.id = id;
            this.startOffset = startOffset;
        }

        boolean artifact(SegmentArtifact artifact, StoredObject object) {
            return objects.putIfAbsent(artifact, object) == null;
        }

        boolean manifest(StoredObject object) {
            if (manifest != null) {
                return false;
            }
            manifest = object;
            return true;
        }

        boolean abandoned(StoredObject object) {
            if (abandoned != null) {
                return false;
            }
            abandoned = object;
            return true;
        }

        ArchivedSegment build() {
            return new ArchivedSegment(
                    id, startOffset, objects, Optional.ofNullable(manifest), Optional.ofNullable(abandoned));
        }
    }
}
