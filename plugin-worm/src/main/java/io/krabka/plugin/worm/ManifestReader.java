package io.krabka.plugin.worm;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.chain.WormChainRecord;
import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The manifests the archive's reads go by: a segment's manifest is read at the version its receipt records and
 * must make the head the receipt records, so a newer version, a delete marker or an edited manifest cannot
 * substitute bytes; the objects are then read at the versions the manifest records. Recent manifests are kept.
 */
final class ManifestReader {
    private static final int CACHED = 1024;

    private final ObjectStore store;
    private final ArchiveLayout layout;
    private final Map<Uuid, SegmentManifest> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Uuid, SegmentManifest> eldest) {
            return size() > CACHED;
        }
    };

    ManifestReader(ObjectStore store, ArchiveLayout layout) {
        this.store = Objects.requireNonNull(store, "store");
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    /**
     * The manifest's entry of one artifact of a segment.
     *
     * @throws RemoteResourceNotFoundException if the segment was sealed without that artifact (an empty
     *                                         transaction index), or its manifest is missing
     * @throws RemoteStorageException          if the receipt or the manifest cannot be read or do not agree
     */
    ObjectEntry entry(RemoteLogSegmentMetadata metadata, SegmentArtifact artifact) throws RemoteStorageException {
        SegmentManifest manifest = manifest(metadata);
        return manifest.body().objects().stream()
                .filter(o -> o.suffix().equals(artifact.suffix()))
                .findFirst()
                .orElseThrow(() -> new RemoteResourceNotFoundException(
                        "segment " + metadata.remoteLogSegmentId().id() + " of " + metadata.topicIdPartition()
                                + " was archived without a " + artifact.suffix()));
    }

    private SegmentManifest manifest(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        Uuid id = metadata.remoteLogSegmentId().id();
        synchronized (cache) {
            SegmentManifest cached = cache.get(id);
            if (cached != null) {
                return cached;
            }
        }
        String segment = "segment " + id + " of " + metadata.topicIdPartition();
        WormChainRecord receipt;
        try {
            receipt = WormChainRecord.decode(metadata.customMetadata()
                    .orElseThrow(() -> new RemoteStorageException(
                            segment + " carries no chain receipt: it was not sealed by a write-once archive"))
                    .value());
        } catch (ArchiveFormatException e) {
            throw new RemoteStorageException(segment + " carries an unreadable chain receipt: " + e.getMessage(), e);
        }
        TopicIdPartition partition = metadata.topicIdPartition();
        String key = layout.segmentKey(
                partition.topic(),
                partition.partition(),
                partition.topicId(),
                metadata.startOffset(),
                id,
                ArchiveLayout.MANIFEST_SUFFIX);
        SegmentManifest manifest;
        try (InputStream in = store.read(key, receipt.manifestVersionId())) {
            byte[] json = in.readNBytes((int) ManifestJson.MAX_MANIFEST_BYTES + 1);
            manifest = ManifestJson.read(json);
        } catch (IOException e) {
            throw new RemoteStorageException("reading the manifest " + key + " failed: " + e, e);
        } catch (ArchiveFormatException e) {
            throw new RemoteStorageException("the manifest " + key + " cannot be read: " + e.getMessage(), e);
        }
        if (!manifest.body().segment().segmentId().equals(id)
                || !receipt.head().equals(Optional.of(manifest.body().head()))) {
            throw new RemoteStorageException("the manifest " + key + " is not the one " + segment + "'s receipt "
                    + "records: the archive was altered");
        }
        synchronized (cache) {
            cache.put(id, manifest);
        }
        return manifest;
    }
}
