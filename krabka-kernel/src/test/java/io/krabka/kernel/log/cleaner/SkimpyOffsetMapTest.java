package io.krabka.kernel.log.cleaner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The offset map: the latest offset of each key, in a fixed amount of memory. */
class SkimpyOffsetMapTest {

    private static ByteBuffer key(int i) {
        // A key inside a larger buffer, as a record's key lies inside its batch.
        byte[] bytes = ("..key-" + i + "..").getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.wrap(bytes);
    }

    private static void put(SkimpyOffsetMap map, int i, long offset) {
        ByteBuffer key = key(i);
        map.put(key, 2, key.capacity() - 4, offset);
    }

    private static long get(SkimpyOffsetMap map, int i) {
        ByteBuffer key = key(i);
        return map.get(key, 2, key.capacity() - 4);
    }

    @Test
    void eachKeyHasItsLatestOffset() {
        SkimpyOffsetMap map = new SkimpyOffsetMap(24 * 1000, CleanerConfig.HASH_ALGORITHM);
        map.clear();
        for (int i = 0; i < 900; i++) {
            put(map, i, i);
        }
        for (int i = 0; i < 900; i += 3) {
            put(map, i, 10_000 + i);
        }
        assertEquals(1000, map.slots());
        assertEquals(1000, map.maxSlots());
        assertEquals(900, map.size(), "overwriting a key adds no entry");
        assertEquals(0.9, map.utilization(), 1e-9);
        for (int i = 0; i < 900; i++) {
            assertEquals(i % 3 == 0 ? 10_000 + i : i, get(map, i), "key " + i);
        }
        assertEquals(-1, get(map, 5000), "an unknown key");
        assertEquals(10_000 + 897, map.latestOffset());
    }

    @Test
    void aCleaningOfFewOffsetsUsesFewSlotsAndKnowsWhichRecordsWereReplaced() {
        SkimpyOffsetMap map = new SkimpyOffsetMap(24 * 1000, CleanerConfig.HASH_ALGORITHM);
        map.clear(100, 10, 12);
        assertEquals(12, map.slots(), "what ten offsets could need");
        assertEquals(1000, map.maxSlots());
        for (int offset = 100; offset < 110; offset++) {
            put(map, offset % 3, offset);
        }
        assertEquals(3, map.size());
        for (long offset = 100; offset < 110; offset++) {
            assertTrue(map.covers(offset));
            assertEquals(offset < 107, map.isSuperseded(offset), "offset " + offset);
            assertEquals(offset >= 107 ? offset : offset + 3 * ((109 - offset) / 3), get(map, (int) (offset % 3)));
        }
        assertFalse(map.covers(99));
        assertFalse(map.covers(110));
        assertEquals(0.003, map.utilization(), 1e-9, "of the memory's slots");

        // A cleaning of more offsets than the memory holds bits for after its slots knows none.
        map.clear(0, 10_000, 2_000);
        assertEquals(1000, map.slots());
        assertFalse(map.covers(0));
        assertEquals(-1, get(map, 1), "cleared");
    }

    @Test
    void aReadOnlyKeyIsHashedTheSame() {
        SkimpyOffsetMap map = new SkimpyOffsetMap(24 * 10, CleanerConfig.HASH_ALGORITHM);
        map.clear();
        put(map, 1, 42);
        ByteBuffer readOnly = key(1).asReadOnlyBuffer();
        assertEquals(42, map.get(readOnly, 2, readOnly.capacity() - 4));
    }

    @Test
    void aFullMapTakesNoNewKeyAndClearingEmptiesIt() {
        SkimpyOffsetMap map = new SkimpyOffsetMap(24 * 4, CleanerConfig.HASH_ALGORITHM);
        map.clear();
        for (int i = 0; i < 4; i++) {
            put(map, i, i);
        }
        assertThrows(IllegalStateException.class, () -> put(map, 9, 9));
        assertEquals(-1, get(map, 9), "a lookup in a full map ends");
        map.clear();
        assertEquals(0, map.size());
        assertEquals(-1, map.latestOffset());
        assertEquals(-1, get(map, 0));
    }
}
