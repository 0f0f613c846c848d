package io.krabka.plugin.worm;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.chain.WormChainRecord;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.archive.manifest.ManifestSealer;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SealedManifest;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.Sha256Digest;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.objectstore.StoreCalls;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * One segment's copy into the archive: every artifact written create-only, all at once, each object's digest
 * taken from the local file it was written from (the log's beside its write), then the manifest, last, the commit
 * point. The receipt it returns goes into the segment's custom metadata.
 *
 * @param layout the archive's keys
 * @param store  the store
 * @param sealer signs the manifests
 * @param chains  the partitions' chain positions
 * @param digests where the logs' digests are computed, beside the writes
 */
record SegmentSeal(
        ArchiveLayout layout, ObjectStore store, ManifestSealer sealer, ChainPositions chains, Executor digests) {
    private static final int DIGEST_BUFFER = 1 << 20;

    SegmentSeal {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(sealer, "sealer");
        Objects.requireNonNull(chains, "chains");
        Objects.requireNonNull(digests, "digests");
    }

    /**
     * Copies and seals the segment.
     *
     * @return the chain receipt, as custom metadata
     * @throws RemoteStorageException if a write fails or is refused (a key already holds an object); what was
     *                                written stays, for the broker to abandon
     */
    CustomMetadata seal(RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
        TopicIdPartition partition = metadata.topicIdPartition();
        ChainStamp stamp = chains.next(partition);
        // The log's digest is the copy's longest computation: it runs beside the writes, not before them.
        CompletableFuture<FileDigest> logDigest =
                CompletableFuture.supplyAsync(() -> digest(data.logSegment()), digests);
        // Every object at once, the log too: the manifest, written after them all, is the commit point.
        List<StoreCalls.Call<ObjectEntry>> writes = new ArrayList<>(List.of(
                () -> file(metadata, SegmentArtifact.OFFSET_INDEX, data.offsetIndex()),
                () -> file(metadata, SegmentArtifact.TIME_INDEX, data.timeIndex()),
                () -> file(metadata, SegmentArtifact.PRODUCER_SNAPSHOT, data.producerSnapshotIndex()),
                () -> buffer(metadata, SegmentArtifact.LEADER_EPOCH_CHECKPOINT, data.leaderEpochIndex())));
        data.transactionIndex()
                .ifPresent(txn -> writes.add(() -> file(metadata, SegmentArtifact.TRANSACTION_INDEX, txn)));
        writes.add(() -> checked(
                SegmentArtifact.SEGMENT,
                store.create(key(metadata, SegmentArtifact.SEGMENT.suffix()), data.logSegment()),
                join(logDigest)));
        List<ObjectEntry> objects = StoreCalls.allAtOnce(writes, "archiving a segment's objects");
        SealedManifest sealed;
        try {
            sealed = sealer.seal(SegmentIdentity.of(metadata), objects, stamp);
        } catch (IllegalArgumentException e) {
            throw new RemoteStorageException(
                    "cannot seal segment " + metadata.remoteLogSegmentId().id() + " of " + partition + ": "
                            + e.getMessage(),
                    e);
        }
        StoredObject manifest =
                store.create(key(metadata, ArchiveLayout.MANIFEST_SUFFIX), ByteBuffer.wrap(sealed.json()));
        chains.sealed(partition, stamp, sealed.head());
        return WormChainRecord.receipt(stamp, sealed.head(), manifest.version()).toCustomMetadata();
    }

    private ObjectEntry file(RemoteLogSegmentMetadata metadata, SegmentArtifact artifact, Path file)
            throws RemoteStorageException {
        FileDigest digest = digestOrFail(file);
        return checked(artifact, store.create(key(metadata, artifact.suffix()), file), digest);
    }

    private ObjectEntry buffer(RemoteLogSegmentMetadata metadata, SegmentArtifact artifact, ByteBuffer bytes)
            throws RemoteStorageException {
        ByteBuffer view = bytes.duplicate();
        MessageDigest sha256 = sha256();
        sha256.update(view.duplicate());
        StoredObject written = store.create(key(metadata, artifact.suffix()), view);
        return checked(artifact, written, new FileDigest(view.remaining(), new Sha256Digest(sha256.digest())));
    }

    /** The store must report what it was given; anything else is not what the manifest would claim. */
    private static ObjectEntry checked(SegmentArtifact artifact, StoredObject written, FileDigest digest)
            throws RemoteStorageException {
        if (written.size() != digest.size()) {
            throw new RemoteStorageException("the store reports " + written.size() + " bytes for " + written.key()
                    + ", written from " + digest.size() + " bytes");
        }
        return ObjectEntry.of(artifact.suffix(), written, digest.sha256());
    }

    /** The size and SHA-256 of a local file, read once with a large buffer. */
    private static FileDigest digest(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha256 = sha256();
            byte[] buffer = new byte[DIGEST_BUFFER];
            long size = 0;
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                sha256.update(buffer, 0, read);
                size += read;
            }
            return new FileDigest(size, new Sha256Digest(sha256.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " to archive it: " + e, e);
        }
    }

    private static FileDigest digestOrFail(Path file) throws RemoteStorageException {
        try {
            return digest(file);
        } catch (UncheckedIOException e) {
            throw new RemoteStorageException(e.getMessage(), e.getCause());
        }
    }

    private static FileDigest join(CompletableFuture<FileDigest> digest) throws RemoteStorageException {
        try {
            return digest.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException io ? io.getCause() : e.getCause();
            throw new RemoteStorageException(e.getCause().getMessage(), cause);
        }
    }

    /** What a file held when it was hashed. */
    private record FileDigest(long size, Sha256Digest sha256) {}

    private String key(RemoteLogSegmentMetadata metadata, String suffix) {
        TopicIdPartition partition = metadata.topicIdPartition();
        return layout.segmentKey(
                partition.topic(),
                partition.partition(),
                partition.topicId(),
                metadata.startOffset(),
                metadata.remoteLogSegmentId().id(),
                suffix);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
