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
 * addressing table in a fixed amount of memory whose slots hold a key's MD5 hash (standing for the key, so that
 * every entry has the same size) and the offset. Probes read successive ints of the hash, then go on linearly, as
 * Kafka's; there is no removal. The memory is allocated at the first {@link #clear()}, so a broker whose logs
 * never need cleaning does not hold it.
 *
 * <p>Not thread-safe: each cleaner thread has its own.
 */
public final class SkimpyOffsetMap {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final MessageDigest digest;
    private final int hashSize;
    private final int bytesPerEntry;
    private final int slots;
    private final byte[] hash;
    private byte[] bytes;
    private byte[] keyCopy = new byte[0];
    private int entries;
    private long lastOffset = -1;

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
        this.slots = memory / bytesPerEntry;
        this.hash = new byte[hashSize];
    }

    /** The number of entries the map can hold. */
    public int slots() {
        return slots;
    }

    /** The number of keys put since the last {@link #clear()}. */
    public int size() {
        return entries;
    }

    /** The share of the slots in use. */
    public double utilization() {
        return slots == 0 ? 0 : (double) entries / slots;
    }

    /** The latest offset put, or set by {@link #updateLatestOffset}; -1 after {@link #clear()}. */
    public long latestOffset() {
        return lastOffset;
    }

    /** Sets the latest offset: the map stands for the log up to it, though no key was put there. */
    public void updateLatestOffset(long offset) {
        lastOffset = offset;
    }

    /** Empties the map, allocating its memory the first time. */
    public void clear() {
        if (bytes == null) {
            bytes = new byte[slots * bytesPerEntry];
        } else {
            Arrays.fill(bytes, (byte) 0);
        }
        entries = 0;
        lastOffset = -1;
    }

    /**
     * Maps the key of {@code keySize} bytes at {@code keyPosition} of {@code buffer} (read with absolute gets) to
     * {@code offset}, replacing its offset if it has one.
     *
     * @throws IllegalStateException if the map is full, or not cleared yet
     */
    public void put(ByteBuffer buffer, int keyPosition, int keySize, long offset) {
        if (entries >= slots) {
            throw new IllegalStateException(
                    "Attempted to add a new entry to a full offset map, entries: " + entries + ", slots: " + slots);
        }
        hashInto(buffer, keyPosition, keySize);
        int attempt = 0;
        int position = positionOf(attempt);
        while (!isEmpty(position)) {
            if (hashAt(position)) {
                LONGS.set(bytes, position + hashSize, offset);
                lastOffset = offset;
                return;
            }
            position = positionOf(++attempt);
        }
        System.arraycopy(hash, 0, bytes, position, hashSize);
        LONGS.set(bytes, position + hashSize, offset);
        lastOffset = offset;
        entries++;
    }

    /**
     * The offset of the key of {@code keySize} bytes at {@code keyPosition} of {@code buffer}, or -1 if it has none.
     */
    public long get(ByteBuffer buffer, int keyPosition, int keySize) {
        hashInto(buffer, keyPosition, keySize);
        // A full map sends a probe round every slot; it stops after one round.
        int maxAttempts = slots + hashSize - 4;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            int position = positionOf(attempt);
            if (isEmpty(position)) {
                return -1;
            }
            if (hashAt(position)) {
                return (long) LONGS.get(bytes, position + hashSize);
            }
        }
        return -1;
    }

    // Kafka's probe sequence: the hash's ints from successive bytes, then one slot further each time.
    private int positionOf(int attempt) {
        int probe = (int) INTS.get(hash, Math.min(attempt, hashSize - 4)) + Math.max(0, attempt - hashSize + 4);
        int slot = (probe == Integer.MIN_VALUE ? 0 : Math.abs(probe)) % slots;
        return slot * bytesPerEntry;
    }

    // An empty slot is all zeroes; a key's hash with a zero offset is not (its first 16 bytes would be zero too).
    private boolean isEmpty(int position) {
        return (long) LONGS.get(bytes, position) == 0
                && (long) LONGS.get(bytes, position + 8) == 0
                && (long) LONGS.get(bytes, position + 16) == 0;
    }

    private boolean hashAt(int position) {
        return Arrays.equals(hash, 0, hashSize, bytes, position, position + hashSize);
    }

    private void hashInto(ByteBuffer buffer, int keyPosition, int keySize) {
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
            digest.digest(hash, 0, hashSize);
        } catch (DigestException e) {
            throw new IllegalStateException("the hash does not fit its own length", e);
        }
    }
}
