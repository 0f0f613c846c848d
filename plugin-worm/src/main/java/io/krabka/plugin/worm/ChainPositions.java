package io.krabka.plugin.worm;

import io.krabka.archive.chain.NextChainStamp;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each partition's next manifest goes. The first copy of a partition after a start reads it from the
 * receipts its segments carry in the metadata manager, so a restart goes on with the chain rather than starting a
 * new epoch; then each seal moves it on. The broker copies one segment of a partition at a time.
 */
final class ChainPositions {

    /** A partition's segments in the metadata manager. */
    @FunctionalInterface
    interface Segments {
        Iterator<RemoteLogSegmentMetadata> list(TopicIdPartition partition) throws RemoteStorageException;
    }

    private final Segments segments;
    private final Map<TopicIdPartition, ChainStamp> next = new ConcurrentHashMap<>();

    ChainPositions(Segments segments) {
        this.segments = Objects.requireNonNull(segments, "segments");
    }

    /**
     * The stamp of the partition's next manifest.
     *
     * @throws RemoteStorageException if the metadata manager fails, a segment carries a receipt this writer cannot
     *                                read (continuing would fork the chain), or the epoch is exhausted
     */
    ChainStamp next(TopicIdPartition partition) throws RemoteStorageException {
        ChainStamp known = next.get(partition);
        if (known != null) {
            return known;
        }
        ChainStamp found = switch (NextChainStamp.of(segments.list(partition), Uuid.randomUuid())) {
            case NextChainStamp.Continued continued -> continued.next();
            case NextChainStamp.FreshEpoch fresh -> fresh.next();
            case NextChainStamp.Exhausted exhausted ->
                throw new RemoteStorageException("the manifest chain of " + partition + " is exhausted after segment "
                        + exhausted.after().id() + ": its seq reached 2^64-1");
            case NextChainStamp.UnreadableReceipt unreadable ->
                throw new RemoteStorageException(
                        "segment "
                                + unreadable.segment().id() + " of " + partition
                                + " carries a chain receipt this broker cannot "
                                + "read (" + unreadable.cause().getMessage() + "); copying on would fork the chain",
                        unreadable.cause());
        };
        next.put(partition, found);
        return found;
    }

    /** A manifest was sealed at {@code stamp} with {@code head}: the next goes after it. */
    void sealed(TopicIdPartition partition, ChainStamp stamp, ChainHead head) {
        stamp.successor(head)
                .ifPresentOrElse(successor -> next.put(partition, successor), () -> next.remove(partition));
    }

    /** Forgets the partition's position: the next copy reads it again from the metadata manager. */
    void forget(TopicIdPartition partition) {
        next.remove(partition);
    }
}
