package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.abandon.AbandonedSegment;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.archive.manifest.ManifestSealer;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SealedManifest;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.Sha256Digest;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Writes write-once archives as the worm writer lays them out, with krabka-archive's sealing API, into a real
 * object store: per segment a {@code .log}, {@code .index} and {@code .timeindex} by create-only writes, then the
 * manifest, signed and chained.
 */
final class SealedArchive {

    static final ArchiveLayout LAYOUT = new ArchiveLayout("archive");
    static final String KEY_ID = "worm-1";
    private static final List<String> SUFFIXES = List.of("log", "index", "timeindex");

    private final ObjectStore store;
    private final Optional<SigningKey> key;
    private long nextId = 1;

    SealedArchive(ObjectStore store, Optional<SigningKey> key) {
        this.store = store;
        this.key = key;
    }

    /** A fresh Ed25519 signing key under {@code keyId}. */
    static SigningKey generatedKey(String keyId) {
        byte[] seed = new byte[32];
        new SecureRandom().nextBytes(seed);
        return SigningKey.fromPrivateKey(keyId, seed);
    }

    /** A partition to append segments to, in a fresh chain epoch. */
    Partition partition(String topic, int partition, Uuid topicId) {
        return new Partition(topic, partition, topicId);
    }

    /** A segment as written: its identity, its keys, the head its manifest made. */
    record Written(SegmentIdentity segment, String logKey, String indexKey, String manifestKey, ChainHead head) {}

    final class Partition {
        private final String topic;
        private final int partition;
        private final Uuid topicId;
        private final List<Written> written = new ArrayList<>();
        private ChainStamp next;
        private long skipped;

        private Partition(String topic, int partition, Uuid topicId) {
            this.topic = topic;
            this.partition = partition;
            this.topicId = topicId;
            restartEpoch();
        }

        /** The partition's directory under the prefix, as discovery names it. */
        String directory() {
            return topic + "-" + partition + "-" + topicId;
        }

        /** Writes a segment of {@code count} offsets after the last one and chains its manifest. */
        Written append(long count) throws RemoteStorageException {
            Written segment = write(identity(count), key);
            next = next.successor(segment.head()).orElseThrow();
            written.add(segment);
            skipped = 0;
            return segment;
        }

        /** Leaves the next {@code count} offsets out, as a segment never copied does. */
        void skipOffsets(long count) {
            skipped += count;
        }

        /** Starts a fresh epoch for the next segment, as a writer that lost its receipts does. */
        void restartEpoch() {
            next = ChainStamp.genesis(new Uuid(0x5EED, nextId++));
        }

        /**
         * A copy of the next segment abandoned after its objects and manifest were written, its record signed with
         * {@code recordKey}; the chain does not advance, so the retry takes its place.
         */
        Written abandonNext(long count, Optional<SigningKey> recordKey) throws RemoteStorageException {
            Written attempt = write(identity(count), key);
            SegmentIdentity s = attempt.segment();
            AbandonmentRecord record = AbandonmentRecord.seal(
                    new AbandonedSegment(topic, topicId, partition, s.segmentId(), s.startOffset(), s.endOffset()),
                    1_700_000_999_000L,
                    recordKey);
            store.create(record.segment().recordKey(LAYOUT), ByteBuffer.wrap(record.encode()));
            return attempt;
        }

        /** The segments chained so far, in order. */
        List<Written> segments() {
            return List.copyOf(written);
        }

        /** The head of the last segment chained. */
        ChainHead tip() {
            return written.getLast().head();
        }

        private SegmentIdentity identity(long count) {
            long start = (written.isEmpty() ? 0 : written.getLast().segment().endOffset() + 1) + skipped;
            TreeMap<Integer, Long> epochs = new TreeMap<>();
            epochs.put(0, start);
            return new SegmentIdentity(
                    topic,
                    topicId,
                    partition,
                    new Uuid(0xC0FFEEL, nextId++),
                    start,
                    start + count - 1,
                    1_700_000_000_000L,
                    1,
                    1_700_000_500_000L,
                    1000,
                    epochs,
                    true);
        }

        private Written write(SegmentIdentity segment, Optional<SigningKey> signer) throws RemoteStorageException {
            List<ObjectEntry> entries = new ArrayList<>();
            for (String suffix : SUFFIXES) {
                byte[] bytes = content(segment, suffix);
                StoredObject stored = store.create(key(segment, suffix), ByteBuffer.wrap(bytes));
                entries.add(ObjectEntry.of(suffix, stored, Sha256Digest.of(bytes)));
            }
            SealedManifest sealed = new ManifestSealer(signer).seal(segment, entries, next);
            store.create(key(segment, "manifest"), ByteBuffer.wrap(sealed.json()));
            return new Written(
                    segment, key(segment, "log"), key(segment, "index"), key(segment, "manifest"), sealed.head());
        }
    }

    static String key(SegmentIdentity segment, String suffix) {
        return LAYOUT.segmentKey(
                segment.topic(),
                segment.partition(),
                segment.topicId(),
                segment.startOffset(),
                segment.segmentId(),
                suffix);
    }

    /** The same bytes for an object every time: a .log of the 1000 bytes its identity claims, small indexes. */
    static byte[] content(SegmentIdentity segment, String suffix) {
        byte[] bytes = new byte[suffix.equals("log") ? (int) segment.segmentSizeBytes() : 48];
        new Random(Objects.hash(segment.segmentId(), suffix)).nextBytes(bytes);
        return bytes;
    }
}
