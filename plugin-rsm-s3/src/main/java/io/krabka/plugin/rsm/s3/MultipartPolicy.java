package io.krabka.plugin.rsm.s3;

import io.krabka.spi.storage.RemoteStorageException;

/**
 * When a file is uploaded in parts, and in which parts.
 *
 * @param thresholdBytes files of at least this size go in parts
 * @param partSizeBytes  the size of every part but the last
 * @param concurrency    how many parts of one upload are sent at once
 */
record MultipartPolicy(long thresholdBytes, long partSizeBytes, int concurrency) {
    /** S3's smallest part but the last. */
    static final long MIN_PART_BYTES = 5L << 20;
    /** S3's largest part, and largest single PUT. */
    static final long MAX_PART_BYTES = 5L << 30;
    /** S3's most parts in one upload. */
    static final int MAX_PARTS = 10_000;

    /** Validates the sizes against S3's limits. */
    MultipartPolicy {
        if (thresholdBytes < 1 || thresholdBytes > MAX_PART_BYTES) {
            throw new IllegalArgumentException("multipart threshold out of [1, 5 GiB]: " + thresholdBytes);
        }
        if (partSizeBytes < MIN_PART_BYTES || partSizeBytes > MAX_PART_BYTES) {
            throw new IllegalArgumentException("part size out of [5 MiB, 5 GiB]: " + partSizeBytes);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency below 1: " + concurrency);
        }
    }

    /** Whether a file of this size goes in parts. */
    boolean usesParts(long fileBytes) {
        return fileBytes >= thresholdBytes;
    }

    /**
     * How many parts a file of this size takes.
     *
     * @throws RemoteStorageException if that is more than S3 allows in one upload
     */
    int partCount(long fileBytes) throws RemoteStorageException {
        long parts = Math.max(1, (fileBytes + partSizeBytes - 1) / partSizeBytes);
        if (parts > MAX_PARTS) {
            throw new RemoteStorageException("a file of " + fileBytes + " bytes needs " + parts + " parts of "
                    + partSizeBytes + " bytes, above S3's " + MAX_PARTS + "; raise multipart.part.size.bytes");
        }
        return (int) parts;
    }
}
