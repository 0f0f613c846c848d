package io.krabka.kernel.record;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * A codec and its level, as Kafka's {@code Compression}: it wraps streams the way Kafka 4.4 does, so that what one
 * writes the other reads. Levels follow Kafka's {@code compression.gzip.level}, {@code compression.lz4.level} and
 * {@code compression.zstd.level}; snappy and none have no level (0).
 *
 * @param type  the codec
 * @param level the codec's level
 */
public record Compression(CompressionType type, int level) {

    /** No compression. */
    public static final Compression NONE = new Compression(CompressionType.NONE, 0);

    /** gzip's levels and default (Deflater's own default). */
    public static final int GZIP_MIN_LEVEL = 1, GZIP_MAX_LEVEL = 9, GZIP_DEFAULT_LEVEL = Deflater.DEFAULT_COMPRESSION;
    /** LZ4's levels and default; Kafka uses the fast compressor at the default and the high one otherwise. */
    public static final int LZ4_MIN_LEVEL = 1, LZ4_MAX_LEVEL = 17, LZ4_DEFAULT_LEVEL = 9;
    /** zstd's levels (zstd-jni's range) and default. */
    public static final int ZSTD_MIN_LEVEL = -131072, ZSTD_MAX_LEVEL = 22, ZSTD_DEFAULT_LEVEL = 3;

    // Kafka's buffer sizes around the codecs: reads and writes reach the codec in large pieces.
    private static final int GZIP_BUFFER = 8 * 1024;
    private static final int STREAM_BUFFER = 16 * 1024;

    /** Checks the level against the codec's range. */
    public Compression {
        Objects.requireNonNull(type, "type");
        boolean valid = switch (type) {
            case NONE, SNAPPY -> level == 0;
            case GZIP -> level == GZIP_DEFAULT_LEVEL || (level >= GZIP_MIN_LEVEL && level <= GZIP_MAX_LEVEL);
            case LZ4 -> level >= LZ4_MIN_LEVEL && level <= LZ4_MAX_LEVEL;
            case ZSTD -> level >= ZSTD_MIN_LEVEL && level <= ZSTD_MAX_LEVEL;
        };
        if (!valid) {
            throw new IllegalArgumentException("level " + level + " is out of range for " + type.kafkaName());
        }
    }

    /** A codec at its default level. */
    public static Compression of(CompressionType type) {
        return new Compression(
                type,
                switch (type) {
                    case NONE, SNAPPY -> 0;
                    case GZIP -> GZIP_DEFAULT_LEVEL;
                    case LZ4 -> LZ4_DEFAULT_LEVEL;
                    case ZSTD -> ZSTD_DEFAULT_LEVEL;
                });
    }

    /**
     * A stream that compresses into {@code out}; closing it finishes the codec's frame and closes {@code out}.
     *
     * @param magic the batch format: magic 0 writes LZ4's frame descriptor checksum the broken way old Kafka did
     */
    public OutputStream wrapForOutput(OutputStream out, byte magic) throws IOException {
        return switch (type) {
            case NONE -> out;
            case GZIP -> new BufferedOutputStream(new LeveledGzipOutputStream(out, level), STREAM_BUFFER);
            case SNAPPY -> new SnappyOutputStream(out);
            case LZ4 -> new Lz4BlockOutputStream(out, level, magic == 0);
            case ZSTD ->
                new BufferedOutputStream(
                        new ZstdOutputStreamNoFinalizer(out, RecyclingBufferPool.INSTANCE, level), STREAM_BUFFER);
        };
    }

    /**
     * A stream of the bytes {@code compressed} decompresses to, from its position to its limit, which it does not
     * move. Reading past {@code maxDecompressedBytes} fails with {@link DecompressionBoundException} before the
     * bytes are produced where the codec declares sizes up front (snappy, LZ4), and as the count passes the bound
     * otherwise.
     *
     * @param magic the batch format: LZ4 frames of magic 0 carry a broken descriptor checksum, which is not checked
     */
    public static InputStream wrapForInput(
            CompressionType type, ByteBuffer compressed, byte magic, long maxDecompressedBytes) throws IOException {
        ByteBuffer bytes = compressed.duplicate();
        InputStream decompressed = switch (type) {
            case NONE -> new ByteBufferInputStream(bytes);
            case GZIP ->
                new BufferedInputStream(
                        new GZIPInputStream(new ByteBufferInputStream(bytes), GZIP_BUFFER), STREAM_BUFFER);
            case SNAPPY -> new SnappyFramedInputStream(bytes, maxDecompressedBytes);
            case LZ4 -> new Lz4BlockInputStream(bytes, magic == 0, maxDecompressedBytes);
            case ZSTD ->
                new PooledBufferedInputStream(
                        new ZstdInputStreamNoFinalizer(new ByteBufferInputStream(bytes), RecyclingBufferPool.INSTANCE),
                        DecompressionBuffers.ZSTD_OUTPUT);
        };
        return new BoundedInputStream(decompressed, maxDecompressedBytes);
    }

    /** gzip at a chosen level: the JDK's stream sets the level only through its protected deflater. */
    private static final class LeveledGzipOutputStream extends GZIPOutputStream {
        LeveledGzipOutputStream(OutputStream out, int level) throws IOException {
            super(out, GZIP_BUFFER);
            def.setLevel(level);
        }
    }
}
