package io.krabka.kernel.tiered;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.IndexBytes;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Remote segments whose indexes, for a segment starting at S, are: offsets S+10 at 1000 and S+20 at 2000;
 * timestamps 10000+S at S+10 and 20000+S at S+20; one aborted transaction from S+1 to S+3.
 */
final class TestSegments {

    /** The bytes of one segment's three index files. */
    static final long ENTRY_SIZE = 2 * 8 + 2 * 12 + 34;

    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);

    private TestSegments() {}

    static RemoteLogSegmentMetadata segment(long startOffset) {
        return new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(PARTITION, Uuid.randomUuid()),
                startOffset,
                startOffset + 99,
                20_000 + startOffset,
                0,
                0,
                10_000,
                new TreeMap<>(Map.of(0, startOffset)),
                false);
    }

    /** A segment whose indexes the storage manager serves. */
    static RemoteLogSegmentMetadata stored(MapRemoteStorageManager rsm, long startOffset) {
        RemoteLogSegmentMetadata metadata = segment(startOffset);
        rsm.put(metadata, IndexType.OFFSET, IndexBytes.offsetIndex(10, 1_000, 20, 2_000));
        rsm.put(
                metadata,
                IndexType.TIMESTAMP,
                IndexBytes.timeIndex(10_000 + startOffset, 10, 20_000 + startOffset, 20));
        rsm.put(metadata, IndexType.TRANSACTION, IndexBytes.txnIndex(abortedTxn(startOffset)));
        return metadata;
    }

    static AbortedTxn abortedTxn(long startOffset) {
        return new AbortedTxn(7, startOffset + 1, startOffset + 3, startOffset + 1);
    }

    /** The live names of a segment's files in a cache directory. */
    static IndexFileSet files(Path cacheDir, RemoteLogSegmentMetadata metadata) {
        return IndexFileSet.of(
                cacheDir, metadata.startOffset(), metadata.remoteLogSegmentId().id());
    }
}
