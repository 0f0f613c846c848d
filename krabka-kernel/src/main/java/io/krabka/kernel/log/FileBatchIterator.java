package io.krabka.kernel.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The batches of a region of a segment file as {@link FileChannelBatch} values, for callers that keep them. Read
 * errors surface as {@link UncheckedIOException}; corrupt framing as
 * {@link io.krabka.kernel.record.CorruptRecordException}.
 */
final class FileBatchIterator implements Iterator<FileChannelBatch> {

    private final FileBatchCursor cursor;
    private FileChannelBatch next;
    private boolean done;

    FileBatchIterator(FileChannel channel, String source, int start, int end) {
        this.cursor = new FileBatchCursor(channel, source, start, end);
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            try {
                if (cursor.next()) {
                    next = cursor.batch();
                } else {
                    done = true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return next != null;
    }

    @Override
    public FileChannelBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        FileChannelBatch batch = next;
        next = null;
        return batch;
    }
}
