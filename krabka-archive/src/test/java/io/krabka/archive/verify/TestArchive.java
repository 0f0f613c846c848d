package io.krabka.archive.verify;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Writes archives as the worm writer does, with the sealing API, into a real object store: per segment a
 * {@code .log}, {@code .index} and {@code .timeindex} by create-only writes, then the manifest.
 */
final class TestArchive {

    static final ArchiveLayout LAYOUT = new ArchiveLayout("tier");
    static final String[] SUFFIXES = {"log", "index", "timeindex"};

    private final ObjectStore store;
    private final Optional<SigningKey> key;
    private long nextId = 1;

    TestArchive(ObjectStore store, Optional<SigningKey> key) {
        this.store = store;
        this.key = key;
    }

    /** A partition to append segments to, in a fresh chain epoch. */
    Partition partition(String topic, int partition, Uuid topicId) {
        return new Partition(topic, partition, topicId);
    }

    /** A segment as written: its keys, its place in the chain, the head it made. */
    record Written(
            SegmentIdentity segment, List<String> objectKeys, String manifestKey, ChainStamp stamp, ChainHead head) {}

    final class Partition {
        private final String topic;
        private final int partition;
        private final Uuid topicId;
        private ChainStamp next;
        private long skipped;
        private final List<Written> written = new ArrayList<>();

        private Partition(String topic, int partition, Uuid topicId) {
            this.topic = topic;
            this.partition = partition;
            this.topicId = topicId;
            this.next = ChainStamp.genesis(new Uuid(0x5EED, nextId++));
        }

        /** The partition's directory name under the prefix. */
        String directory() {
            return topic + "-" + partition + "-" + topicId;
        }

        /** Leaves the next {@code count} offsets out of the archive, as a segment never copied does. */
        void skipOffsets(long count) {
            skipped += count;
        }

        /** Writes a segment of {@code count} offsets after the last one and chains its manifest. */
        Written append(long count) throws RemoteStorageException {
            long start = nextOffset();
            Written segment = write(identity(start, start + count - 1), next, key);
            next = next.successor(segment.head()).orElseThrow();
            written.add(segment);
            skipped = 0;
            return segment;
        }

        /** Starts a fresh epoch for the next segment, as a writer that lost its receipts does. */
        void restartEpoch() {
            next = ChainStamp.genesis(new Uuid(0x5EED, nextId++));
        }

        /**
         * A copy of the next segment that is abandoned after its objects (and, if asked, its manifest) are written;
         * the record is signed with {@code recordKey}. The chain does not advance: the retry reuses the stamp.
         */
        Written abandonNext(long count, boolean withManifest, Optional<SigningKey> recordKey)
                throws RemoteStorageException {
            long start = nextOffset();
            SegmentIdentity segment = identity(start, start + count - 1);
            Written attempt = withManifest ? write(segment, next, key) : writeObjectsOnly(segment);
            AbandonmentRecord record = AbandonmentRecord.seal(
                    new AbandonedSegment(
                            topic, topicId, partition, segment.segmentId(), segment.startOffset(), segment.endOffset()),
                    1_700_000_999_000L,
                    recordKey);
            store.create(record.segment().recordKey(LAYOUT), ByteBuffer.wrap(record.encode()));
            return attempt;
        }

        /** The segments written so far, in order. */
        List<Written> segments() {
            return List.copyOf(written);
        }

        /** The head of the last segment. */
        ChainHead tip() {
            return written.getLast().head();
        }

        private long nextOffset() {
            return (written.isEmpty() ? 0 : written.getLast().segment().endOffset() + 1) + skipped;
        }

        private SegmentIdentity identity(long start, long end) {
            TreeMap<Integer, Long> epochs = new TreeMap<>();
            epochs.put(0, start);
            return new SegmentIdentity(
                    topic,
                    topicId,
                    partition,
                    new Uuid(0xC0FFEEL, nextId++),
                    start,
                    end,
                    1_700_000_000_000L + end,
                    1,
                    1_700_000_500_000L + end,
                    1000,
                    epochs,
                    true);
        }

        private Written writeObjectsOnly(SegmentIdentity segment) throws RemoteStorageException {
            List<String> keys = new ArrayList<>();
            for (String suffix : SUFFIXES) {
                keys.add(objectKey(segment, suffix));
                store.create(objectKey(segment, suffix), ByteBuffer.wrap(content(segment, suffix)));
            }
            return new Written(segment, keys, objectKey(segment, "manifest"), next, ChainHead.GENESIS);
        }

        private Written write(SegmentIdentity segment, ChainStamp stamp, Optional<SigningKey> signer)
                throws RemoteStorageException {
            List<ObjectEntry> entries = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (String suffix : SUFFIXES) {
                byte[] bytes = content(segment, suffix);
                StoredObject stored = store.create(objectKey(segment, suffix), ByteBuffer.wrap(bytes));
                entries.add(ObjectEntry.of(suffix, stored, Sha256Digest.of(bytes)));
                keys.add(stored.key());
            }
            SealedManifest sealed = new ManifestSealer(signer).seal(segment, entries, stamp);
            String manifestKey = objectKey(segment, "manifest");
            store.create(manifestKey, ByteBuffer.wrap(sealed.json()));
            return new Written(segment, keys, manifestKey, stamp, sealed.head());
        }
    }

    static String objectKey(SegmentIdentity segment, String suffix) {
        return LAYOUT.segmentKey(
                segment.topic(),
                segment.partition(),
                segment.topicId(),
                segment.startOffset(),
                segment.segmentId(),
                suffix);
    }

    /** Deterministic bytes for an object: a segment's .log is 1000 bytes, as its identity says. */
    static byte[] content(SegmentIdentity segment, String suffix) {
        byte[] bytes = new byte[suffix.equals("log") ? 1000 : 64 + suffix.length()];
        new Random(segment.segmentId().leastSignificantBits() * 31 + suffix.hashCode()).nextBytes(bytes);
        return bytes;
    }
}
