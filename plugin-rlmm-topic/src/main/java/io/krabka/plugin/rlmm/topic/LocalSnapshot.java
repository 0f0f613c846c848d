package io.krabka.plugin.rlmm.topic;

import io.krabka.rlmm.cache.LeaderEpochSnapshot;
import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.PartitionSnapshot;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What the manager had read of {@code __remote_log_metadata} at one instant: the next offset to read in each
 * metadata partition it consumed, and the whole cache those events built. Loading it, the manager resumes each
 * partition at its offset instead of replaying the topic. The file format is in the plugin's README.
 *
 * @param metadataPartitions the partition count of the topic the offsets are of
 * @param nextOffsets        metadata partition to the offset of the first event not in {@code cache}
 * @param cache              the cache
 */
record LocalSnapshot(int metadataPartitions, Map<Integer, Long> nextOffsets, MetadataSnapshot cache) {

    private static final int MAGIC = 0x4B524C4D; // "KRLM"
    private static final short VERSION = 1;

    /** Freezes the offsets. */
    LocalSnapshot {
        nextOffsets = Map.copyOf(nextOffsets);
    }

    /** Writes the snapshot to a temporary file, forces it, and renames it over {@code file}. */
    void write(Path file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeInt(metadataPartitions);
        out.writeInt(nextOffsets.size());
        for (Map.Entry<Integer, Long> entry : new TreeMap<>(nextOffsets).entrySet()) {
            out.writeInt(entry.getKey());
            out.writeLong(entry.getValue());
        }
        out.writeInt(cache.partitions().size());
        for (PartitionSnapshot partition : cache.partitions()) {
            writePartition(out, partition);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(
                temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes.toByteArray()));
            channel.force(true);
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel directory = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    /**
     * The snapshot in {@code file}, or empty if there is none.
     *
     * @throws IOException if the file cannot be read or is not a valid snapshot (the message says why)
     */
    static Optional<LocalSnapshot> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        byte[] all = Files.readAllBytes(file);
        if (all.length < 4) {
            throw new IOException(file + ": not a remote log metadata snapshot: " + all.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 4);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
        in.skipNBytes(all.length - 4);
        if (in.readInt() != (int) crc.getValue()) {
            throw new IOException(file + ": not a remote log metadata snapshot: its checksum does not match");
        }
        in = new DataInputStream(new ByteArrayInputStream(all, 0, all.length - 4));
        try {
            if (in.readInt() != MAGIC) {
                throw new IOException(file + ": not a remote log metadata snapshot: wrong magic number");
            }
            short version = in.readShort();
            if (version != VERSION) {
                throw new IOException(file + ": snapshot version " + version + " is not " + VERSION);
            }
            int metadataPartitions = in.readInt();
            Map<Integer, Long> offsets = new TreeMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                offsets.put(in.readInt(), in.readLong());
            }
            List<PartitionSnapshot> partitions = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                partitions.add(readPartition(in));
            }
            if (in.available() > 0) {
                throw new IOException(file + ": " + in.available() + " bytes follow the snapshot");
            }
            return Optional.of(new LocalSnapshot(metadataPartitions, offsets, new MetadataSnapshot(partitions)));
        } catch (MetadataRecordException | IllegalArgumentException e) {
            throw new IOException(file + ": not a valid remote log metadata snapshot: " + e.getMessage(), e);
        }
    }

    private static void writePartition(DataOutputStream out, PartitionSnapshot partition) throws IOException {
        TopicIdPartition tp = partition.topicIdPartition();
        out.writeUTF(tp.topic());
        writeUuid(out, tp.topicId());
        out.writeInt(tp.partition());
        out.writeBoolean(partition.deleteMetadata().isPresent());
        if (partition.deleteMetadata().isPresent()) {
            writeBytes(
                    out,
                    RemoteLogMetadataSerde.serialize(partition.deleteMetadata().get()));
        }
        out.writeInt(partition.segments().size());
        for (RemoteLogSegmentMetadata segment : partition.segments()) {
            writeBytes(out, RemoteLogMetadataSerde.serializeSnapshotSegment(segment));
        }
        out.writeInt(partition.leaderEpochs().size());
        for (LeaderEpochSnapshot epoch : partition.leaderEpochs()) {
            out.writeInt(epoch.epoch());
            out.writeLong(epoch.highestLogOffset().orElse(-1L));
            out.writeInt(epoch.referenced().size());
            for (Map.Entry<Long, RemoteLogSegmentId> referenced :
                    epoch.referenced().entrySet()) {
                out.writeLong(referenced.getKey());
                writeUuid(out, referenced.getValue().id());
            }
            out.writeInt(epoch.unreferenced().size());
            for (RemoteLogSegmentId unreferenced : epoch.unreferenced()) {
                writeUuid(out, unreferenced.id());
            }
        }
    }

    private static PartitionSnapshot readPartition(DataInputStream in) throws IOException {
        String topic = in.readUTF();
        TopicIdPartition tp = new TopicIdPartition(readUuid(in), topic, in.readInt());
        Optional<RemotePartitionDeleteMetadata> delete = Optional.empty();
        if (in.readBoolean()) {
            delete = Optional.of((RemotePartitionDeleteMetadata) RemoteLogMetadataSerde.deserialize(readBytes(in)));
        }
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            segments.add(RemoteLogMetadataSerde.deserializeSnapshotSegment(readBytes(in), tp));
        }
        List<LeaderEpochSnapshot> epochs = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            int epoch = in.readInt();
            long highest = in.readLong();
            TreeMap<Long, RemoteLogSegmentId> referenced = new TreeMap<>();
            for (int j = in.readInt(); j > 0; j--) {
                referenced.put(in.readLong(), new RemoteLogSegmentId(tp, readUuid(in)));
            }
            Set<RemoteLogSegmentId> unreferenced = new HashSet<>();
            for (int j = in.readInt(); j > 0; j--) {
                unreferenced.add(new RemoteLogSegmentId(tp, readUuid(in)));
            }
            epochs.add(new LeaderEpochSnapshot(
                    epoch, highest < 0 ? Optional.empty() : Optional.of(highest), referenced, unreferenced));
        }
        return new PartitionSnapshot(tp, delete, segments, epochs);
    }

    private static void writeUuid(DataOutputStream out, Uuid id) throws IOException {
        out.writeLong(id.mostSignificantBits());
        out.writeLong(id.leastSignificantBits());
    }

    private static Uuid readUuid(DataInputStream in) throws IOException {
        return new Uuid(in.readLong(), in.readLong());
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("a record of " + length + " bytes does not fit the snapshot");
        }
        return in.readNBytes(length);
    }
}
