package io.krabka.bench;

import java.io.IOException;

/**
 * A consumer's position in a log of equal batches (each appended from the same produced batch, so each has the
 * same size and record count), read from the start to the end and again: after a fetch of {@code n} bytes, the
 * next starts after the whole batches among them, as a consumer's next fetch does (a read may end inside a batch).
 */
final class FetchCursor {
    /** One read of the log at an offset: the base offset of the first batch in the slice, and its size. */
    @FunctionalInterface
    interface Probe {
        Slice read(long offset) throws IOException;
    }

    /** What a read returned: where its first batch starts, and how many bytes it holds. */
    record Slice(long firstBatchOffset, int size) {}

    private final int batchBytes;
    private final int batchRecords;
    private final long logEndOffset;
    private long next;

    private FetchCursor(int batchBytes, int batchRecords, long logEndOffset) {
        this.batchBytes = batchBytes;
        this.batchRecords = batchRecords;
        this.logEndOffset = logEndOffset;
    }

    /**
     * A cursor at offset 0, after one pass over the whole log through {@code probe} has shown that every read
     * returns whole batches from the batch asked for (at least one, at most {@code maxBytes} unless one batch is
     * larger) and that the reads together cover the log, every offset and every byte.
     *
     * @throws IllegalStateException if the reads do not
     */
    static FetchCursor checked(Probe probe, ProducedBatch batch, int maxBytes, long logEndOffset, long logBytes)
            throws IOException {
        FetchCursor cursor = new FetchCursor(batch.size(), batch.records(), logEndOffset);
        long bytes = 0;
        long reads = 0;
        do {
            Slice slice = probe.read(cursor.next);
            if (slice.firstBatchOffset() != cursor.next || slice.size() > Math.max(maxBytes, batch.size())) {
                throw new IllegalStateException(
                        "a read of at most " + maxBytes + " bytes at offset " + cursor.next + " returned " + slice);
            }
            bytes += slice.size() - slice.size() % batch.size();
            reads++;
            cursor.advance(slice.size());
        } while (cursor.next != 0);
        if (bytes != logBytes || logBytes != logEndOffset / batch.records() * batch.size()) {
            throw new IllegalStateException(reads + " reads covered " + bytes + " bytes of a log of " + logBytes
                    + " bytes and " + logEndOffset + " records in batches of " + batch.size() + " bytes and "
                    + batch.records() + " records");
        }
        return cursor;
    }

    /** The offset to read next. */
    long next() {
        return next;
    }

    /**
     * Moves past the whole batches of a slice of {@code sliceBytes} read at {@link #next()}, back to 0 at the log
     * end; the new position.
     *
     * @throws IllegalStateException if the slice holds no whole batch
     */
    long advance(int sliceBytes) {
        int batches = sliceBytes / batchBytes;
        if (batches == 0) {
            throw new IllegalStateException("a read at offset " + next + " returned " + sliceBytes
                    + " bytes, less than a batch of " + batchBytes);
        }
        next += (long) batches * batchRecords;
        if (next >= logEndOffset) {
            next = 0;
        }
        return next;
    }
}
