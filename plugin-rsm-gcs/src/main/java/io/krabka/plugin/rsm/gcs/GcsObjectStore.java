package io.krabka.plugin.rsm.gcs;

import com.google.cloud.ReadChannel;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.krabka.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One Google Cloud Storage bucket as an {@link ObjectStore}. A file smaller than the resumable threshold is sent in
 * one request; a larger one is streamed from disk in a resumable upload, one chunk in memory at a time. A resumable
 * upload that fails is abandoned unfinished: GCS makes an object only when the last byte arrives, so it leaves none
 * (the unfinished session expires on its own).
 */
final class GcsObjectStore implements ObjectStore {
    private static final String CONTENT_TYPE = "application/octet-stream";
    private static final int LIST_PAGE = 1000;
    /**
     * The client gzips request bodies unless told not to: segments are record batches, compressed already or
     * not worth it, and gzip made a 1 MiB upload several times slower.
     */
    private static final Storage.BlobTargetOption NO_GZIP = Storage.BlobTargetOption.disableGzipContent();

    private final Storage storage;
    private final String bucket;
    private final int chunkSize;
    private final int resumableThreshold;

    GcsObjectStore(Storage storage, String bucket, int chunkSize, int resumableThreshold) {
        this.storage = Objects.requireNonNull(storage, "storage");
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.chunkSize = chunkSize;
        this.resumableThreshold = resumableThreshold;
    }

    @Override
    public void upload(String key, Path file) throws RemoteStorageException {
        String what = "upload of " + file + " to " + uri(key);
        try {
            long size = Files.size(file);
            if (size < resumableThreshold) {
                storage.create(info(key), Files.readAllBytes(file), NO_GZIP);
            } else {
                resumable(key, file, size);
            }
        } catch (IOException | RuntimeException e) {
            throw GcsErrors.of(what, e);
        }
    }

    @Override
    public void upload(String key, ByteBuffer bytes) throws RemoteStorageException {
        ByteBuffer view = bytes.duplicate();
        byte[] content = new byte[view.remaining()];
        view.get(content);
        try {
            storage.create(info(key), content, NO_GZIP);
        } catch (RuntimeException e) {
            throw GcsErrors.of("upload of " + content.length + " bytes to " + uri(key), e);
        }
    }

    @Override
    public InputStream read(String key, long from, long toInclusive) throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid byte range " + from + "-" + toInclusive + " of " + uri(key));
        }
        String what = "read of " + uri(key) + " bytes " + from + "-" + (toInclusive == Long.MAX_VALUE ? "" : toInclusive);
        ReadChannel channel;
        try {
            channel = storage.reader(BlobId.of(bucket, key));
            channel.seek(from);
            channel.limit(toInclusive == Long.MAX_VALUE ? Long.MAX_VALUE : toInclusive + 1);
        } catch (IOException | RuntimeException e) {
            throw GcsErrors.of(what, e);
        }
        return GcsObjectStream.open(channel, what);
    }

    @Override
    public InputStream read(String key) throws RemoteStorageException {
        return read(key, 0, Long.MAX_VALUE);
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        try {
            storage.delete(BlobId.of(bucket, key)); // false when there was no object: already deleted
        } catch (RuntimeException e) {
            throw GcsErrors.of("delete of " + uri(key), e);
        }
    }

    @Override
    public List<String> list(String prefix) throws RemoteStorageException {
        try {
            List<String> keys = new ArrayList<>();
            for (Blob blob : storage.list(bucket, Storage.BlobListOption.prefix(prefix),
                    Storage.BlobListOption.pageSize(LIST_PAGE)).iterateAll()) {
                keys.add(blob.getName());
            }
            return keys;
        } catch (RuntimeException e) {
            throw GcsErrors.of("listing of " + uri(prefix) + "*", e);
        }
    }

    /** Lists one object: what the tier needs most often (storage.objects.list), and a 404 for a missing bucket. */
    @Override
    public void checkAccess() throws RemoteStorageException {
        try {
            storage.list(bucket, Storage.BlobListOption.pageSize(1));
        } catch (RuntimeException e) {
            String why = GcsErrors.notFound(e) ? "the bucket does not exist" : GcsErrors.describe(e);
            throw new RemoteStorageException("GCS bucket \"" + bucket + "\" cannot be used: listing its objects "
                    + "(storage.objects.list) failed: " + why, e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            storage.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot close the GCS client of bucket " + bucket + ": " + e.getMessage(), e);
        }
    }

    /**
     * Streams a file through a resumable upload. Only a complete file is finalized: on any failure the writer is
     * abandoned, never closed, since closing it would finalize what was sent so far as the object.
     */
    private void resumable(String key, Path file, long size) throws IOException {
        WriteChannel writer = storage.writer(info(key), Storage.BlobWriteOption.disableGzipContent());
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

    private BlobInfo info(String key) {
        return BlobInfo.newBuilder(bucket, key).setContentType(CONTENT_TYPE).build();
    }

    private String uri(String key) {
        return "gs://" + bucket + "/" + key;
    }
}
