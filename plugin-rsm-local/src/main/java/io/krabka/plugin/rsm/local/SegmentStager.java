package io.krabka.plugin.rsm.local;

import io.krabka.spi.storage.LogSegmentData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a segment's files into a staging directory under their final names, all forced to disk before it
 * returns. Files are streamed channel to channel, so a segment of any size passes without being held in memory.
 * Every file is written first and all are then forced at once ({@link FileSync#files}), so the small files' forces
 * overlap the segment's instead of following it one by one.
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
     * @throws IOException if a source cannot be read, changes size while copied, or a file cannot be written or
     *                     forced
     */
    Map<SegmentFileType, Path> stage(LogSegmentData data, Path attempt, SegmentFiles target) throws IOException {
        Map<SegmentFileType, Path> staged = new EnumMap<>(SegmentFileType.class);
        List<FileChannel> written = new ArrayList<>();
        IOException failure = null;
        try {
            written.add(copy(data.logSegment(), stagedPath(attempt, target, SegmentFileType.SEGMENT, staged)));
            written.add(copy(data.offsetIndex(), stagedPath(attempt, target, SegmentFileType.OFFSET_INDEX, staged)));
            written.add(copy(data.timeIndex(), stagedPath(attempt, target, SegmentFileType.TIME_INDEX, staged)));
            if (data.transactionIndex().isPresent()) {
                written.add(copy(
                        data.transactionIndex().get(),
                        stagedPath(attempt, target, SegmentFileType.TRANSACTION_INDEX, staged)));
            }
            written.add(copy(
                    data.producerSnapshotIndex(),
                    stagedPath(attempt, target, SegmentFileType.PRODUCER_SNAPSHOT, staged)));
            // Written even when empty, unlike Kafka's LocalTieredStorage, so that every complete segment has the file.
            written.add(write(
                    data.leaderEpochIndex(),
                    stagedPath(attempt, target, SegmentFileType.LEADER_EPOCH_CHECKPOINT, staged)));
            sync.files(written);
        } catch (IOException e) {
            failure = e;
            throw e;
        } finally {
            closeAll(written, failure);
        }
        return staged;
    }

    private static Path stagedPath(
            Path attempt, SegmentFiles target, SegmentFileType type, Map<SegmentFileType, Path> staged) {
        Path path = attempt.resolve(target.path(type).getFileName());
        staged.put(type, path);
        return path;
    }

    /** The open channel of the copy, to force and close. */
    private static FileChannel copy(Path source, Path staged) throws IOException {
        FileChannel out = FileChannel.open(staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            long size = in.size();
            long position = 0;
            while (position < size) {
                long sent = in.transferTo(position, size - position, out);
                if (sent <= 0) {
                    throw new IOException(
                            source + " shrank from " + size + " to " + in.size() + " bytes while it was copied");
                }
                position += sent;
            }
            return out;
        } catch (IOException | RuntimeException e) {
            closeAll(List.of(out), e);
            throw e;
        }
    }

    /** The open channel of the written file, to force and close. */
    private static FileChannel write(ByteBuffer bytes, Path staged) throws IOException {
        FileChannel out = FileChannel.open(staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            closeAll(List.of(out), e);
            throw e;
        }
    }

    private static void closeAll(List<FileChannel> channels, Exception primary) throws IOException {
        IOException failure = null;
        for (FileChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
