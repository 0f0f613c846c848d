package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lookups while one writer appends, truncates, trims and resizes: never a torn entry, never an unmapped read. */
class IndexConcurrencyTest {

    private static final long BASE = 0;
    private static final int ENTRIES = 20_000;

    @Test
    void lookupsSeeOnlyWholeEntriesWhileTheWriterAppendsAndRemaps(@TempDir Path dir) throws Exception {
        try (OffsetIndex index = new OffsetIndex(dir.resolve("0.index"), BASE, 1_024, true);
                ExecutorService readers = Executors.newFixedThreadPool(3)) {
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Future<Integer>> lookups = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                lookups.add(readers.submit(() -> {
                    int checked = 0;
                    while (writing.get() || checked == 0) {
                        long target = 1 + (checked * 7919L) % (2L * ENTRIES);
                        OffsetPosition found = index.lookup(target);
                        // Entry n holds offset 2n and position 10n; a lookup finds the last entry at or below.
                        assertTrue(found.offset() <= target, () -> found + " for " + target);
                        assertEquals(found.offset() * 5, found.position(), found::toString);
                        checked++;
                    }
                    return checked;
                }));
            }
            int n = 1;
            for (int step = 1; n <= ENTRIES; step++, n++) {
                if (index.isFull()) {
                    index.trimToValidSize();
                    index.resize(index.length() + 1_024);
                }
                index.append(BASE + 2L * n, 10 * n);
                if (step % 1_000 == 0) { // a truncation, then a shrink below the old end: reads must not pass it
                    n -= 300;
                    index.truncateTo(BASE + 2L * (n + 1));
                    index.trimToValidSize();
                    index.resize(index.length() + 1_024);
                }
            }
            writing.set(false);
            for (Future<Integer> lookup : lookups) {
                assertTrue(lookup.get() > 0);
            }
            assertEquals(new OffsetPosition(2L * ENTRIES, 10 * ENTRIES), index.lookup(Long.MAX_VALUE));
        }
    }
}
