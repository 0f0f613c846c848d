package io.krabka.kernel.record;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Arrays of one size that decompressing streams borrow while they are open and give back when closed, shared by
 * every thread, so validating a compressed batch does not allocate and zero a codec buffer for a few KiB of
 * records. Kafka keeps such buffers per request handler thread; here each request runs on a virtual thread of its
 * own, so they are shared, and a few are kept.
 */
final class DecompressionBuffers {

    /** LZ4 blocks of the size Kafka's producers write (block size id 4). */
    static final DecompressionBuffers LZ4_BLOCKS = new DecompressionBuffers(Lz4Frame.blockMaximumSize(4));
    /** The buffer between a zstd stream and the record reader, Kafka's 16 KiB. */
    static final DecompressionBuffers ZSTD_OUTPUT = new DecompressionBuffers(16 * 1024);

    private static final int KEPT = 16;

    private final int size;
    private final ConcurrentLinkedQueue<byte[]> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger freeCount = new AtomicInteger();

    private DecompressionBuffers(int size) {
        this.size = size;
    }

    /** The size of the arrays. */
    int size() {
        return size;
    }

    /** An array of {@link #size()} bytes, a kept one if there is one; its contents are whatever was left in it. */
    byte[] take() {
        byte[] array = free.poll();
        if (array == null) {
            return new byte[size];
        }
        freeCount.decrementAndGet();
        return array;
    }

    /** Gives back an array from {@link #take}, which the caller no longer uses; kept unless enough are. */
    void give(byte[] array) {
        if (freeCount.incrementAndGet() <= KEPT) {
            free.offer(array);
        } else {
            freeCount.decrementAndGet();
        }
    }
}
