package io.krabka.it;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The bytes of a KRaft bootstrap snapshot that hold the time it was written, and nothing else: each batch's base
 * and max timestamp (and so its CRC-32C, which covers them), and the {@code SnapshotHeaderRecord}'s last contained
 * log timestamp. Kafka's format tool reads its clock for each of these; two snapshots written for the same cluster
 * differ in them and in no other byte.
 */
final class SnapshotTimes {
    // Magic 2 batch header: base offset 0, length 8, CRC 17, attributes 21 (the CRC covers from here), base and
    // max timestamps 27 and 35, records from 61.
    private static final int LENGTH = 8;
    private static final int CRC = 17;
    private static final int ATTRIBUTES = 21;
    private static final int BASE_TIMESTAMP = 27;
    private static final int MAX_TIMESTAMP = 35;
    private static final int RECORDS = 61;

    /**
     * One batch.
     *
     * @param position      where it starts
     * @param size          its size, header included
     * @param baseTimestamp its base timestamp
     * @param maxTimestamp  its max timestamp
     * @param crcValid      whether its CRC-32C matches its bytes
     */
    record Batch(int position, int size, long baseTimestamp, long maxTimestamp, boolean crcValid) {}

    private SnapshotTimes() {}

    /** The batches of a snapshot file, which must be whole. */
    static List<Batch> batches(byte[] file) {
        ByteBuffer bytes = ByteBuffer.wrap(file);
        List<Batch> batches = new ArrayList<>();
        int position = 0;
        while (position < file.length) {
            int size = 12 + bytes.getInt(position + LENGTH);
            if (size < RECORDS || position + size > file.length) {
                throw new IllegalArgumentException(
                        "a batch of " + size + " bytes at " + position + " in a file of " + file.length);
            }
            batches.add(new Batch(
                    position,
                    size,
                    bytes.getLong(position + BASE_TIMESTAMP),
                    bytes.getLong(position + MAX_TIMESTAMP),
                    bytes.getInt(position + CRC) == crc(file, position, size)));
            position += size;
        }
        return batches;
    }

    /** The last contained log timestamp of the snapshot's header record. */
    static long headerTimestamp(byte[] file) {
        return ByteBuffer.wrap(file).getLong(headerTimestampPosition(file));
    }

    /**
     * {@code target} with the times of {@code source} (batch by batch, and the header's) and the CRCs made to match:
     * where the two were written for the same cluster, equal to {@code source} byte for byte.
     */
    static byte[] withTimesOf(byte[] target, byte[] source) {
        List<Batch> targetBatches = batches(target);
        List<Batch> sourceBatches = batches(source);
        if (targetBatches.size() != sourceBatches.size()) {
            throw new IllegalArgumentException(targetBatches.size() + " batches against " + sourceBatches.size());
        }
        byte[] copy = target.clone();
        ByteBuffer bytes = ByteBuffer.wrap(copy);
        bytes.putLong(headerTimestampPosition(copy), headerTimestamp(source));
        for (int i = 0; i < targetBatches.size(); i++) {
            Batch batch = targetBatches.get(i);
            bytes.putLong(
                    batch.position() + BASE_TIMESTAMP, sourceBatches.get(i).baseTimestamp());
            bytes.putLong(batch.position() + MAX_TIMESTAMP, sourceBatches.get(i).maxTimestamp());
            bytes.putInt(batch.position() + CRC, crc(copy, batch.position(), batch.size()));
        }
        return copy;
    }

    // The first record of the first batch is the header: length, attributes, timestamp delta, offset delta, key
    // length, key, value length (varints but the attributes), then the value: version (int16), then the timestamp.
    private static int headerTimestampPosition(byte[] file) {
        int[] position = {RECORDS};
        readVarint(file, position);
        position[0]++;
        readVarint(file, position);
        readVarint(file, position);
        int keyLength = readVarint(file, position);
        position[0] += keyLength;
        readVarint(file, position);
        return position[0] + Short.BYTES;
    }

    private static int readVarint(byte[] file, int[] position) {
        int raw = 0;
        int shift = 0;
        byte b;
        do {
            b = file[position[0]++];
            raw |= (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return (raw >>> 1) ^ -(raw & 1);
    }

    private static int crc(byte[] file, int position, int size) {
        CRC32C crc = new CRC32C();
        crc.update(file, position + ATTRIBUTES, size - ATTRIBUTES);
        return (int) crc.getValue();
    }
}
