package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Appends to a file that end whole or not at all, for the files appended to in place: segments, transaction indexes. */
final class WholeWrites {
    private WholeWrites() {}

    /**
     * Writes {@code bytes} (from its position to its limit, moving it) at {@code end}, the file's end. A write that
     * fails part way (a full disk) has what it wrote cut off again before the exception leaves, so no torn bytes
     * stay for a later append to land behind.
     *
     * @throws TornWriteException if cutting them off failed too
     */
    static void append(FileChannel channel, ByteBuffer bytes, long end) throws IOException {
        long at = end;
        try {
            while (bytes.hasRemaining()) {
                at += channel.write(bytes, at);
            }
        } catch (IOException e) {
            if (at > end) {
                try {
                    channel.truncate(end);
                } catch (IOException cut) {
                    throw new TornWriteException(
                            "A write that failed (" + e.getMessage() + ") left " + (at - end)
                                    + " torn bytes that could not be cut off",
                            e,
                            cut);
                }
            }
            throw e;
        }
    }
}
