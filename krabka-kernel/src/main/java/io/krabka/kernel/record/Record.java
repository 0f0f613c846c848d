package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One decoded record with its absolute offset and timestamp. Keys and values are read-only views: of the batch's
 * own buffer for uncompressed batches, of a private copy otherwise.
 *
 * @param offset     the absolute offset: the batch's base offset plus the record's offset delta
 * @param timestamp  the batch's base timestamp plus the record's delta; for LogAppendTime batches, the batch's
 *                   max timestamp; -1 for none
 * @param sequence   the producer sequence (base sequence plus offset delta, wrapping at Integer.MAX_VALUE), or -1
 * @param attributes the record's attribute byte (unused by the format so far)
 * @param key        the key, or null
 * @param value      the value, or null
 * @param headers    the headers, in order
 */
public record Record(
        long offset,
        long timestamp,
        int sequence,
        byte attributes,
        ByteBuffer key,
        ByteBuffer value,
        List<Header> headers) {

    /** Keeps read-only views and an unmodifiable header list. */
    public Record {
        key = key == null ? null : key.asReadOnlyBuffer();
        value = value == null ? null : value.asReadOnlyBuffer();
        headers = List.copyOf(headers);
    }

    /** Whether the record has a key. */
    public boolean hasKey() {
        return key != null;
    }

    /** The key's size, or -1 when there is none. */
    public int keySize() {
        return key == null ? -1 : key.remaining();
    }

    /** The value's size, or -1 when there is none. */
    public int valueSize() {
        return value == null ? -1 : value.remaining();
    }
}
