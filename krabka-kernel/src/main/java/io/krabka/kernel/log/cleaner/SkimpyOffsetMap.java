package io.krabka.kernel.log.cleaner;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The latest offset of each key in the part of a log being cleaned, Kafka's {@code SkimpyOffsetMap}: an open
 * addressing table whose slots hold a key's MD5 hash (standing for the key, so that every entry has the same size)
 * and the offset. Probes read successive ints of the hash, then go on linearly, as Kafka's; there is no removal.
 *
 * <p>It holds at most as many keys as Kafka's in the same memory, and is full at the same count. Two things make it
 * cheaper than Kafka's, whose every probe is a cache miss in a table the size of the whole dedupe buffer: a cleaning
 * uses only as many slots as the offsets it maps could need (all of them for a large dirty section), so a small
 * one touches and clears a small table; and the memory this leaves over holds one bit per mapped offset, set when a
 * later record of the same key replaced it in the map, so that the cleaning decides the records of the dirty
 * section without hashing and probing again ({@link #covers}, {@link #isSuperseded}). The memory is allocated at the
 * first cleaning, so a broker whose logs never need cleaning does not hold it.
 *
 * <p>Not thread-safe: each cleaner thread has its own.
 */
public final class SkimpyOffsetMap {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    /** The puts {@link #queue} takes before they must be applied. */
    static final int QUEUE = 16;

    private final MessageDigest digest;
    private final int hashSize;
    private final int bytesPerEntry;
    private final int maxSlots;
    private final byte[] hash;
    private final byte[] queuedHashes;
    private final long[] queuedOffsets = new long[QUEUE];
    private byte[] bytes;
    private byte[] keyCopy = new byte[0];
    private int slots;
    private long startOffset;
    private int bitmapStart;
    private long coveredOffsets;
    private int entries;
    private long lastOffset = -1;
    private int queued;
    // Where the read-ahead loads go, so that the compiler keeps them.
    @SuppressWarnings("UnusedVariable")
    private long readAhead;

    /**
     * A map in {@code memory} bytes.
     *
     * @param hashAlgorithm the key hash ({@link CleanerConfig#HASH_ALGORITHM}); a digest of at least 16 bytes
     */
    public SkimpyOffsetMap(int memory, String hashAlgorithm) {
        try {
            this.digest = MessageDigest.getInstance(hashAlgorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("no " + hashAlgorithm + " digest in this JVM", e);
        }
        this.hashSize = digest.getDigestLength();
        if (hashSize < 16) {
            throw new IllegalArgumentException(hashAlgorithm + " hashes are shorter than 16 bytes");
        }
        this.bytesPerEntry = hashSize + 8;
        this.maxSlots = memory / bytesPerEntry;
        this.slots = maxSlots;
        this.hash = new byte[hashSize];
        this.queuedHashes = new byte[QUEUE * hashSize];
    }

    /** The number of entries the map can hold in its memory: Kafka's {@code slots}. */
    public int maxSlots() {
        return maxSlots;
    }

    /** The number of entries the map holds in this cleaning: at most {@link #maxSlots()}. */
    public int slots() {
        return slots;
    }

    /** The number of keys put since the last {@link #clear}. */
    public int size() {
        return entries;
    }

    /** The share of the memory's slots in use: Kafka's utilization. */
    public double utilization() {
        return maxSlots == 0 ? 0 : (double) entries / maxSlots;
    }

    /** The latest offset put, or set by {@link #updateLatestOffset}; -1 after {@link #clear}. */
    public long latestOffset() {
        return lastOffset;
    }

    /** Sets the latest offset: the map stands for the log up to it, though no key was put there. */
    public void updateLatestOffset(long offset) {
        lastOffset = offset;
    }

    /** Empties the map and gives it every slot: {@code clear(0, Long.MAX_VALUE, maxSlots)}. */
    public void clear() {
        clear(0, Long.MAX_VALUE, maxSlots);
    }

    /**
     * Empties the map for a cleaning that puts keys of offsets from {@code startOffset} on, allocating its memory
     * the first time.
     *
     * @param offsets     how many offsets from {@code startOffset} the cleaning may put, at most
     * @param slotsWanted the slots that many offsets could need (fewer are used if the memory holds fewer)
     */
    public void clear(long startOffset, long offsets, long slotsWanted) {
        if (bytes == null) {
            bytes = new byte[maxSlots * bytesPerEntry];
        } else {
            // Only what the last cleaning used.
            Arrays.fill(bytes, 0, slots * bytesPerEntry, (byte) 0);
            Arrays.fill(bytes, bitmapStart, bitmapStart + bitmapBytes(coveredOffsets), (byte) 0);
        }
        slots = (int) Math.max(1, Math.min(maxSlots, slotsWanted));
        this.startOffset = startOffset;
        // The bits of the offsets, in the memory the slots leave over, as far as it goes.
        bitmapStart = slots * bytesPerEntry;
        coveredOffsets = Math.min(Math.max(offsets, 0), 8L * (bytes.length - bitmapStart));
        entries = 0;
        lastOffset = -1;
        queued = 0;
    }

    private static int bitmapBytes(long bits) {
        return (int) ((bits + 7) / 8);
    }

    /**
     * Maps the key of {@code keySize} bytes at {@code keyPosition} of {@code buffer} (read with absolute gets) to
     * {@code offset}, replacing its offset if it has one; the replaced offset, if covered, is marked superseded.
     *
     * @throws IllegalStateException if the map is full, or not cleared yet
     */
    public void put(ByteBuffer buffer, int keyPosition, int keySize, long offset) {
        hashInto(buffer, keyPosition, keySize, hash, 0);
        putHash(hash, 0, offset);
    }

    /**
     * Queues the put of a key and its offset, to be applied with others by {@link #putQueued}: the slots of the
     * queued keys are read ahead all at once, so that their cache misses overlap instead of following one another.
     *
     * @return whether the queue is full and must be applied before the next
     */
    public boolean queue(ByteBuffer buffer, int keyPosition, int keySize, long offset) {
        hashInto(buffer, keyPosition, keySize, queuedHashes, queued * hashSize);
        queuedOffsets[queued++] = offset;
        return queued == QUEUE;
    }

    /**
     * Applies the queued puts in order, each only while the map holds fewer than {@code maxEntries} keys (the
     * load factor's share of the slots), as {@link #put} one by one after that check would; empties the queue.
     *
     * @return whether a put found the map at {@code maxEntries}: the map is full, and the puts from it on were not
     *     applied
     */
    public boolean putQueued(int maxEntries) {
        long sink = 0;
        for (int i = 0; i < queued; i++) {
            int position = positionOf(queuedHashes, i * hashSize, 0);
            sink += (long) LONGS.get(bytes, position) + bytes[position + bytesPerEntry - 1];
        }
        readAhead += sink;
        int count = queued;
        queued = 0;
        for (int i = 0; i < count; i++) {
            if (entries >= maxEntries) {
                return true;
            }
            putHash(queuedHashes, i * hashSize, queuedOffsets[i]);
        }
        return false;
    }

    private void putHash(byte[] hashes, int hashOffset, long offset) {
        if (entries >= slots) {
            throw new IllegalStateException(
                    "Attempted to add a new entry to a full offset map, entries: " + entries + ", slots: " + slots);
        }
        int attempt = 0;
        int position = positionOf(hashes, hashOffset, attempt);
        while (!isEmpty(position)) {
            if (hashAt(hashes, hashOffset, position)) {
                markSuperseded((long) LONGS.get(bytes, position + hashSize));
                LONGS.set(bytes, position + hashSize, offset);
                lastOffset = offset;
                return;
            }
            position = positionOf(hashes, hashOffset, ++attempt);
        }
        System.arraycopy(hashes, hashOffset, bytes, position, hashSize);
        LONGS.set(bytes, position + hashSize, offset);
        lastOffset = offset;
        entries++;
    }

    /**
     * The offset of the key of {@code keySize} bytes at {@code keyPosition} of {@code buffer}, or -1 if it has none.
     */
    public long get(ByteBuffer buffer, int keyPosition, int keySize) {
        hashInto(buffer, keyPosition, keySize, hash, 0);
        // A full map sends a probe round every slot; it stops after one round.
        int maxAttempts = slots + hashSize - 4;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            int position = positionOf(hash, 0, attempt);
            if (isEmpty(position)) {
                return -1;
            }
            if (hashAt(hash, 0, position)) {
                return (long) LONGS.get(bytes, position + hashSize);
            }
        }
        return -1;
    }

    /**
     * Whether the map knows, without a lookup, if the record put at {@code offset} was superseded: the offset is
     * among those its bits cover. Only for offsets up to {@link #latestOffset()} whose record was put.
     */
    public boolean covers(long offset) {
        return offset >= startOffset && offset - startOffset < coveredOffsets;
    }

    /** Whether a later record of the same key replaced the one put at {@code offset}, which {@link #covers}. */
    public boolean isSuperseded(long offset) {
        long bit = offset - startOffset;
        return (bytes[bitmapStart + (int) (bit >>> 3)] & (1 << (bit & 7))) != 0;
    }

    private void markSuperseded(long offset) {
        if (covers(offset)) {
            long bit = offset - startOffset;
            bytes[bitmapStart + (int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
        }
    }

    // Kafka's probe sequence: the hash's ints from successive bytes, then one slot further each time.
    private int positionOf(byte[] hashes, int hashOffset, int attempt) {
        int probe = (int) INTS.get(hashes, hashOffset + Math.min(attempt, hashSize - 4))
                + Math.max(0, attempt - hashSize + 4);
        int slot = (probe == Integer.MIN_VALUE ? 0 : Math.abs(probe)) % slots;
        return slot * bytesPerEntry;
    }

    // An empty slot is all zeroes; a key's hash with a zero offset is not (its first 16 bytes would be zero too).
    private boolean isEmpty(int position) {
        return (long) LONGS.get(bytes, position) == 0
                && (long) LONGS.get(bytes, position + 8) == 0
                && (long) LONGS.get(bytes, position + 16) == 0;
    }

    private boolean hashAt(byte[] hashes, int hashOffset, int position) {
        return Arrays.equals(hashes, hashOffset, hashOffset + hashSize, bytes, position, position + hashSize);
    }

    private void hashInto(ByteBuffer buffer, int keyPosition, int keySize, byte[] into, int intoOffset) {
        if (bytes == null) {
            throw new IllegalStateException("the offset map is used before it is cleared");
        }
        if (buffer.hasArray()) {
            digest.update(buffer.array(), buffer.arrayOffset() + keyPosition, keySize);
        } else {
            if (keyCopy.length < keySize) {
                keyCopy = new byte[Math.max(keySize, 2 * keyCopy.length)];
            }
            buffer.get(keyPosition, keyCopy, 0, keySize);
            digest.update(keyCopy, 0, keySize);
        }
        try {
            digest.digest(into, intoOffset, hashSize);
        } catch (DigestException e) {
            throw new IllegalStateException("the hash does not fit its own length", e);
        }
    }
}
