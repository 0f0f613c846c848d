package io.krabka.kernel.log;

import java.nio.ByteBuffer;

/**
 * Binary searches over an index's entries, which must be sorted by what is compared. Kafka's cache-friendly
 * variant: a target in the last 8 KiB of entries (the "warm section", where appends go and most lookups land) is
 * searched there alone, so common lookups touch only pages the page cache keeps.
 */
final class IndexSearch {

    private static final int WARM_SECTION_BYTES = 8192;

    private IndexSearch() {}

    /**
     * The number of leading entries whose key (or value) is at or below {@code target}; minus one, the slot of the
     * entry a lookup finds, or -1 if none.
     */
    static int countAtOrBelow(AbstractIndex index, ByteBuffer idx, int n, long target, IndexSearchType type) {
        return boundary(index, idx, n, target, type, true);
    }

    /** The number of leading entries whose key (or value) is below {@code target}: the first slot at or above it. */
    static int countBelow(AbstractIndex index, ByteBuffer idx, int n, long target, IndexSearchType type) {
        return boundary(index, idx, n, target, type, false);
    }

    private static int boundary(
            AbstractIndex index, ByteBuffer idx, int n, long target, IndexSearchType type, boolean inclusive) {
        if (n == 0) {
            return 0;
        }
        int firstWarm = Math.max(0, n - 1 - WARM_SECTION_BYTES / index.entrySize());
        int low;
        int high;
        if (precedes(index, idx, firstWarm, target, type, inclusive)) {
            low = firstWarm + 1;
            high = n;
        } else {
            low = 0;
            high = firstWarm;
        }
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (precedes(index, idx, mid, target, type, inclusive)) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private static boolean precedes(
            AbstractIndex index, ByteBuffer idx, int slot, long target, IndexSearchType type, boolean inclusive) {
        long probe = type == IndexSearchType.KEY ? index.key(idx, slot) : index.value(idx, slot);
        return inclusive ? probe <= target : probe < target;
    }
}
