package io.krabka.archive.verify;

import io.krabka.archive.internal.Sha256;
import io.krabka.archive.manifest.Sha256Digest;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Hashes objects as fast as the JDK's SHA-256 goes: one large buffer reused for every object of a partition, so
 * memory stays bounded whatever the objects' sizes. One per verifying thread.
 */
final class ObjectDigester {

    private static final int BUFFER_BYTES = 1 << 20;

    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final MessageDigest sha256 = Sha256.newDigest();
    private final ProgressCounter progress;

    ObjectDigester(ProgressCounter progress) {
        this.progress = progress;
    }

    /** The digest of a stream's bytes, and their count; the caller closes the stream. */
    Hashed digest(InputStream in) throws IOException {
        sha256.reset();
        long total = 0;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            sha256.update(buffer, 0, n);
            total += n;
            progress.bytesHashed(n);
        }
        return new Hashed(new Sha256Digest(sha256.digest()), total);
    }

    /** A digest and the number of bytes it covers. */
    record Hashed(Sha256Digest digest, long bytes) {}
}
