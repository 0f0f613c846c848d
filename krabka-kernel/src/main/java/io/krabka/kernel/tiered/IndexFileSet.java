package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogFileUtils;
import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.util.List;

/**
 * The three index files of one remote segment in the cache directory, named as Kafka's {@code RemoteIndexCache}
 * names them: {@code <startOffset>_<segmentId>} (the offset not zero-padded), then the index suffix and, for
 * files in transit, a further suffix.
 *
 * @param offsetIndex the {@code .index} file
 * @param timeIndex   the {@code .timeindex} file
 * @param txnIndex    the {@code .txnindex} file
 */
record IndexFileSet(Path offsetIndex, Path timeIndex, Path txnIndex) {

    /** The live names of a segment's indexes in {@code dir}. */
    static IndexFileSet of(Path dir, long startOffset, Uuid segmentId) {
        String prefix = startOffset + "_" + segmentId;
        return new IndexFileSet(
                dir.resolve(prefix + LogFileUtils.INDEX_FILE_SUFFIX),
                dir.resolve(prefix + LogFileUtils.TIME_INDEX_FILE_SUFFIX),
                dir.resolve(prefix + LogFileUtils.TXN_INDEX_FILE_SUFFIX));
    }

    /** These names with {@code suffix} appended, such as {@code .tmp} or {@code .deleted}. */
    IndexFileSet withSuffix(String suffix) {
        return new IndexFileSet(
                offsetIndex.resolveSibling(offsetIndex.getFileName() + suffix),
                timeIndex.resolveSibling(timeIndex.getFileName() + suffix),
                txnIndex.resolveSibling(txnIndex.getFileName() + suffix));
    }

    /** The offset, time and transaction index, in that order. */
    List<Path> all() {
        return List.of(offsetIndex, timeIndex, txnIndex);
    }
}
