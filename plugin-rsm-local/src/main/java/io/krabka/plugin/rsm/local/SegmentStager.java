package io.krabka.plugin.rsm.local;

import io.krabka.spi.storage.LogSegmentData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.Map;

/**
 * Writes a segment's files into a staging directory under their final names, each forced to disk. Files are
 * streamed channel to channel, so a segment of any size passes without being held in memory.
 */
final class SegmentStager {
    private final FileSync sync;

    SegmentStager(FileSync sync) {
        this.sync = sync;
    }

    /**
     * Stages every file of {@code data} in {@code attempt}, named as in {@code target}.
     *
     * @return the staged files; {@link SegmentFileType#TRANSACTION_INDEX} only when the segment has one
     * @throws IOException if a source cannot be read, changes size while copied, or a file cannot be written
     */
    Map<SegmentFileType, Path> stage(LogSegmentData data, Path attempt, SegmentFiles target) throws IOException {
        Map<SegmentFileType, Path> staged = new EnumMap<>(SegmentFileType.class);
        copy(data.logSegment(), stagedPath(attempt, target, SegmentFileType.SEGMENT, staged));
        copy(data.offsetIndex(), stagedPath(attempt, target, SegmentFileType.OFFSET_INDEX, staged));
        copy(data.timeIndex(), stagedPath(attempt, target, SegmentFileType.TIME_INDEX, staged));
        if (data.transactionIndex().isPresent()) {
            copy(data.transactionIndex().get(), stagedPath(attempt, target, SegmentFileType.TRANSACTION_INDEX, staged));
        }
        copy(data.producerSnapshotIndex(), stagedPath(attempt, target, SegmentFileType.PRODUCER_SNAPSHOT, staged));
        // Written even when empty, unlike Kafka's LocalTieredStorage, so that every complete segment has the file.
        write(data.leaderEpochIndex(), stagedPath(attempt, target, SegmentFileType.LEADER_EPOCH_CHECKPOINT, staged));
        return staged;
    }

    private static Path stagedPath(Path attempt, SegmentFiles target, SegmentFileType type,
                                   Map<SegmentFileType, Path> staged) {
        Path path = attempt.resolve(target.path(type).getFileName());
        staged.put(type, path);
        return path;
    }

    private void copy(Path source, Path staged) throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long size = in.size();
            long position = 0;
            while (position < size) {
                long sent = in.transferTo(position, size - position, out);
                if (sent <= 0) {
                    throw new IOException(source + " shrank from " + size + " to " + in.size() + " bytes while it was copied");
                }
                position += sent;
            }
            sync.file(out);
        }
    }

    private void write(ByteBuffer bytes, Path staged) throws IOException {
        try (FileChannel out = FileChannel.open(staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            sync.file(out);
        }
    }
}
