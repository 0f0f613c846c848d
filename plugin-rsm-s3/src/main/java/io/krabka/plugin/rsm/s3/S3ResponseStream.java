package io.krabka.plugin.rsm.s3;

import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;

/**
 * The body of a GET. The SDK's unchecked failures while reading become {@link IOException}s, as an
 * {@code InputStream}'s callers expect; closing before the end aborts the connection rather than reading the rest
 * of a large range to reuse it.
 */
final class S3ResponseStream extends InputStream {
    private final ResponseInputStream<?> body;
    private final String object;
    private boolean ended;

    S3ResponseStream(ResponseInputStream<?> body, String object) {
        this.body = body;
        this.object = object;
    }

    @Override
    public int read() throws IOException {
        try {
            int b = body.read();
            ended |= b < 0;
            return b;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
        try {
            int n = body.read(buffer, off, len);
            ended |= n < 0;
            return n;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (!ended) {
                body.abort();
            }
            body.close();
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    private IOException failure(RuntimeException e) {
        return new IOException("reading " + object + " failed: " + S3Errors.oneLine(e), e);
    }
}
