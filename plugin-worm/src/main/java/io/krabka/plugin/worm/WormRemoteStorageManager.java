package io.krabka.plugin.worm;

import io.krabka.archive.abandon.AbandonedSegment;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.KeyFileException;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.manifest.ManifestSealer;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.objectstore.SegmentRange;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteFetchRefusedException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.WriteOnceRemoteStorageManager;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The write-once archive. A copy writes every artifact of the segment with a create-only write (never over an
 * existing key), records each object's size, SHA-256 and version, and seals a signed manifest beside them, written
 * last: the commit point, chained to the partition's previous manifest. The copy returns the chain receipt as the
 * segment's custom metadata, so that after a restart the chain goes on from the metadata manager's segments. Reads
 * go by the versions the manifest records. Nothing is ever deleted: a copy that fails is abandoned, its objects
 * recorded as such.
 */
final class WormRemoteStorageManager implements WriteOnceRemoteStorageManager {
    private static final System.Logger LOG = System.getLogger(WormRemoteStorageManager.class.getName());

    private final RemoteStorageContext context;
    private final ObjectStore store;
    private final PluginMetrics.Counter seals;
    private final PluginMetrics.LatencyRecorder sealTime;
    private volatile Archive archive;

    WormRemoteStorageManager(RemoteStorageContext context) {
        this.context = Objects.requireNonNull(context, "context");
        this.store = context.objectStore();
        this.seals = context.metrics().counter("ManifestSealsPerSec");
        this.sealTime = context.metrics().latency("ManifestSealTimeMs");
    }

    /**
     * Reads the settings and the signing key, and checks that the store enforces the retention an archive needs.
     *
     * @throws ConfigException one line naming the setting, the key file or the store and what is wrong
     */
    @Override
    public void configure(Map<String, ?> configs) {
        if (archive != null) {
            throw new IllegalStateException("already configured");
        }
        WormConfig config = WormConfig.parse(configs);
        Optional<SigningKey> signer;
        try {
            signer = config.signingKeyPath().isPresent()
                    ? Optional.of(SigningKey.readPkcs8(
                            config.signingKeyPath().get(), config.signingKeyId().orElseThrow()))
                    : Optional.empty();
        } catch (KeyFileException e) {
            throw new ConfigException(
                    WormConfig.SIGNING_KEY_PATH, config.signingKeyPath().get(), e.getMessage());
        }
        try {
            RetentionCheck.check(store.protection(), config);
        } catch (RemoteStorageException e) {
            throw new ConfigException(
                    "cannot read the protection of the object store " + store.location() + ": " + e.getMessage());
        }
        if (signer.isEmpty()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The write-once archive on " + store.location() + " writes unsigned " + "manifests (no "
                            + WormConfig.SIGNING_KEY_PATH + "): krabka verify cannot attest them");
        }
        // Digests are CPU-bound: a platform thread a core; the broker copies several partitions at once.
        ExecutorService digests = Executors.newFixedThreadPool(
                Runtime.getRuntime().availableProcessors(),
                Thread.ofPlatform().name("worm-digest-", 0).daemon(true).factory());
        archive = new Archive(
                config,
                signer,
                new SegmentSeal(
                        config.layout(),
                        store,
                        new ManifestSealer(signer),
                        new ChainPositions(context::listRemoteLogSegments),
                        digests),
                new ManifestReader(store, config.layout()),
                digests);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        long started = System.nanoTime();
        Archive a = archive();
        CustomMetadata receipt = a.seal().seal(metadata, data);
        seals.increment(1);
        sealTime.record(System.nanoTime() - started);
        return Optional.of(receipt);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        return fetchLogSegment(metadata, startPosition, Integer.MAX_VALUE);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        Archive a = readable();
        Optional<SegmentRange> range = SegmentRange.of(metadata, startPosition, endPosition);
        if (range.isEmpty()) {
            return InputStream.nullInputStream();
        }
        ObjectEntry log = a.manifests().entry(metadata, SegmentArtifact.SEGMENT);
        return store.read(
                log.key(), log.versionId(), range.get().from(), range.get().toInclusive());
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        ObjectEntry index = readable().manifests().entry(metadata, SegmentArtifact.of(indexType));
        return store.read(index.key(), index.versionId());
    }

    /**
     * Refused: an archive deletes nothing.
     *
     * @throws RemoteStorageException always
     */
    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        throw new RemoteStorageException("the write-once archive on " + store.location() + " deletes nothing: refused "
                + "to delete segment " + metadata.remoteLogSegmentId().id() + " of " + metadata.topicIdPartition());
    }

    /**
     * Writes the signed record of the abandoned copy beside its objects (create-only: a second call finds it there)
     * and forgets the partition's chain position, which the next copy reads again from the metadata manager, where
     * the abandoned segment no longer counts.
     */
    @Override
    public void abandonSegmentCopy(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        Archive a = archive();
        a.seal().chains().forget(metadata.topicIdPartition());
        AbandonedSegment segment = AbandonedSegment.of(metadata);
        AbandonmentRecord record = AbandonmentRecord.seal(segment, System.currentTimeMillis(), a.signer());
        try {
            store.create(segment.recordKey(a.config().layout()), ByteBuffer.wrap(record.encode()));
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Abandoned the copy of segment "
                            + metadata.remoteLogSegmentId().id()
                            + " [" + metadata.startOffset() + ", " + metadata.endOffset() + "] of "
                            + metadata.topicIdPartition() + ": its objects stay in the archive, recorded as abandoned");
        } catch (ObjectExistsException e) {
            // Abandoned already: the record is there.
        }
    }

    /** Stops the digest threads; the kernel owns the store and closes it after this manager. */
    @Override
    public void close() {
        Archive a = archive;
        archive = null;
        if (a != null) {
            a.digests().shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "WormRemoteStorageManager[" + store.location() + "]";
    }

    private Archive readable() throws RemoteFetchRefusedException {
        Archive a = archive();
        if (a.config().writeOnly()) {
            throw new RemoteFetchRefusedException("the write-once archive on " + store.location() + " is write-only ("
                    + WormConfig.WRITE_ONLY + "=true): remote reads are refused");
        }
        return a;
    }

    private Archive archive() {
        Archive a = archive;
        if (a == null) {
            throw new IllegalStateException("the worm remote storage manager is not configured, or closed");
        }
        return a;
    }

    /** The configured archive. */
    private record Archive(
            WormConfig config,
            Optional<SigningKey> signer,
            SegmentSeal seal,
            ManifestReader manifests,
            ExecutorService digests) {}
}
