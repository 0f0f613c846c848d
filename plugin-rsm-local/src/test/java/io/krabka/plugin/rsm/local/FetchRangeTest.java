package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.storage.InvalidRangeException;
import org.junit.jupiter.api.Test;

class FetchRangeTest {

    @Test
    void endIsInclusiveAndClampedToTheLastByte() throws InvalidRangeException {
        assertEquals(10, FetchRange.of(0, 9, "s").lengthWithin(100));
        assertEquals(1, FetchRange.of(5, 5, "s").lengthWithin(100));
        assertEquals(10, FetchRange.of(90, 1_000, "s").lengthWithin(100));
        assertEquals(100, FetchRange.of(0, Integer.MAX_VALUE, "s").lengthWithin(100));
    }

    @Test
    void aRangeStartingAtTheEndIsEmpty() throws InvalidRangeException {
        assertEquals(0, FetchRange.of(100, 100, "s").lengthWithin(100));
        assertEquals(0, FetchRange.of(100, Integer.MAX_VALUE, "s").lengthWithin(100));
        assertEquals(0, FetchRange.of(0, 0, "s").lengthWithin(0));
    }

    @Test
    void invalidRangesNameTheRangeAndTheSegment() {
        assertEquals(
                "invalid byte range [-1, 5] of segment X: start is negative",
                assertThrows(InvalidRangeException.class, () -> FetchRange.of(-1, 5, "segment X"))
                        .getMessage());
        assertEquals(
                "invalid byte range [5, 4] of segment X: end is before start",
                assertThrows(InvalidRangeException.class, () -> FetchRange.of(5, 4, "segment X"))
                        .getMessage());
        assertEquals(
                "invalid byte range [101, 200] of segment X: start is beyond the end of its 100 bytes",
                assertThrows(
                                InvalidRangeException.class,
                                () -> FetchRange.of(101, 200, "segment X").lengthWithin(100))
                        .getMessage());
    }
}
