package io.krabka.plugin.rsm.gcs;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The two ways an object is written: one request for what is held in memory, a resumable upload streamed from a
 * file for the rest. Either is made create-only with {@code ifGenerationMatch=0}, which GCS checks when the object
 * would be made: at the single request, or at the final request of a resumable upload.
 */
final class GcsUploads {
    /**
     * The client gzips request bodies unless told not to: segments are record batches, compressed already or
     * not worth it, and gzip made a 1 MiB upload several times slower.
     */
    private static final Storage.BlobTargetOption NO_GZIP = Storage.BlobTargetOption.disableGzipContent();

    private final Storage storage;
    private final int chunkSize;

    GcsUploads(Storage storage, int chunkSize) {
        this.storage = storage;
        this.chunkSize = chunkSize;
    }

    /** Writes {@code content} in one request; the object as GCS answers it. */
    Blob single(BlobInfo info, byte[] content, boolean createOnly) {
        return createOnly
                ? storage.create(info, content, NO_GZIP, Storage.BlobTargetOption.doesNotExist())
                : storage.create(info, content, NO_GZIP);
    }

    /**
     * Streams a file through a resumable upload. Only a complete file is finalized: on any failure the writer is
     * abandoned, never closed, since closing it would finalize what was sent so far as the object (GCS makes no
     * object of an unfinished session, which expires on its own).
     */
    void resumable(BlobInfo info, Path file, long size, boolean createOnly) throws IOException {
        WriteChannel writer = createOnly
                ? storage.writer(
                        info, Storage.BlobWriteOption.disableGzipContent(), Storage.BlobWriteOption.doesNotExist())
                : storage.writer(info, Storage.BlobWriteOption.disableGzipContent());
        writer.setChunkSize(chunkSize);
        ByteBuffer buffer = ByteBuffer.allocate(Math.min(chunkSize, 1 << 20));
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long sent = 0;
            while (sent < size) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), size - sent));
                if (in.read(buffer, sent) < 0) {
                    throw new IOException(file + " ended at byte " + sent + " while being uploaded; it had " + size);
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    sent += writer.write(buffer);
                }
            }
        }
        writer.close();
    }
}
