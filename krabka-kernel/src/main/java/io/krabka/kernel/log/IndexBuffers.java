package io.krabka.kernel.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/** The checks and view every fixed-size-entry index decoder starts with. */
final class IndexBuffers {

    private IndexBuffers() {}

    /**
     * A read-only, big-endian view of the bytes between {@code bytes}' position and limit, indexed from zero. The
     * caller's buffer is left as it was.
     *
     * @throws CorruptIndexException if the bytes are not a whole number of entries
     */
    static ByteBuffer entriesView(ByteBuffer bytes, int entrySize, String source) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(source, "source");
        ByteBuffer view = bytes.slice().asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN);
        checkWholeEntries(view.remaining(), entrySize, source);
        return view;
    }

    /**
     * Checks that {@code size} bytes are a whole number of entries.
     *
     * @throws CorruptIndexException if they are not
     */
    static void checkWholeEntries(long size, int entrySize, String source) {
        if (size % entrySize != 0) {
            throw new CorruptIndexException(
                    source,
                    size - size % entrySize,
                    "size " + size + " bytes is not a multiple of the entry size " + entrySize);
        }
    }
}
