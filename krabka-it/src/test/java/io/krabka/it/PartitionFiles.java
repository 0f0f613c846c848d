package io.krabka.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files of a partition's log directory as Kafka names them: segments of {@code <baseOffset:020d>.log} with
 * their {@code .index}, {@code .timeindex} and (where a transaction was aborted) {@code .txnindex}; producer state
 * snapshots {@code <offset:020d>.snapshot}; {@code partition.metadata}; {@code leader-epoch-checkpoint}.
 *
 * @param dir                   the directory ({@code <topic>-<partition>})
 * @param segments              its segments, by base offset
 * @param producerSnapshots     its producer state snapshots, by offset
 * @param partitionMetadata     {@code partition.metadata}
 * @param leaderEpochCheckpoint {@code leader-epoch-checkpoint}
 */
record PartitionFiles(
        Path dir,
        List<SegmentFiles> segments,
        List<Path> producerSnapshots,
        Path partitionMetadata,
        Path leaderEpochCheckpoint) {
    static final String PARTITION_METADATA = "partition.metadata";
    static final String LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint";

    private static final Pattern OFFSET_FILE = Pattern.compile("(\\d{20})\\.(log|index|timeindex|txnindex|snapshot)");

    /** Copies the lists. */
    PartitionFiles {
        segments = List.copyOf(segments);
        producerSnapshots = List.copyOf(producerSnapshots);
    }

    /**
     * The files of one segment. Kafka creates a segment's indexes when it first needs them: a killed broker can
     * leave its active segment with a {@code .log} alone (empty, just rolled), or without its {@code .index}
     * (no entry yet). Every other segment has both indexes.
     *
     * @param baseOffset  its base offset, from the file names
     * @param log         the {@code .log}
     * @param offsetIndex where its {@code .index} is
     * @param timeIndex   where its {@code .timeindex} is
     * @param txnIndex    the {@code .txnindex}, which Kafka writes only for a segment holding an abort marker
     */
    record SegmentFiles(long baseOffset, Path log, Path offsetIndex, Path timeIndex, Optional<Path> txnIndex) {

        /** Its files that exist, the log first. */
        List<Path> all() {
            List<Path> all = new ArrayList<>(List.of(log));
            Stream.of(offsetIndex, timeIndex).filter(Files::exists).forEach(all::add);
            txnIndex.ifPresent(all::add);
            return all;
        }
    }

    /** The segment holding the latest offsets, where appends go. */
    SegmentFiles activeSegment() {
        return segments.getLast();
    }

    /** Every file DumpLogSegments reads: each segment's files in order, then the producer snapshots. */
    List<Path> dumpable() {
        List<Path> files = new ArrayList<>();
        segments.forEach(s -> files.addAll(s.all()));
        files.addAll(producerSnapshots);
        return files;
    }

    /**
     * Reads a partition directory.
     *
     * @throws IllegalStateException if it holds a file Kafka does not write there, a segment misses its log, a
     *                               segment but the active one misses an index, or a file the partition always has
     *                               is missing
     */
    static PartitionFiles scan(Path dir) throws IOException {
        TreeMap<Long, TreeMap<String, Path>> byOffset = new TreeMap<>();
        List<Path> snapshots = new ArrayList<>();
        List<Path> unknown = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path file : entries.sorted().toList()) {
                String name = file.getFileName().toString();
                Matcher m = OFFSET_FILE.matcher(name);
                if (m.matches() && m.group(2).equals("snapshot")) {
                    snapshots.add(file);
                } else if (m.matches()) {
                    byOffset.computeIfAbsent(Long.parseLong(m.group(1)), o -> new TreeMap<>())
                            .put(m.group(2), file);
                } else if (!name.equals(PARTITION_METADATA) && !name.equals(LEADER_EPOCH_CHECKPOINT)) {
                    unknown.add(file);
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("files Kafka does not write in a partition directory: " + unknown);
        }
        List<SegmentFiles> segments = new ArrayList<>();
        byOffset.forEach((offset, files) -> {
            boolean active = offset.equals(byOffset.lastKey());
            for (String required : active ? List.of("log") : List.of("log", "index", "timeindex")) {
                if (!files.containsKey(required)) {
                    throw new IllegalStateException(
                            "segment " + offset + " of " + dir + " has no ." + required + ": " + files.values());
                }
            }
            String name = "%020d".formatted(offset);
            segments.add(new SegmentFiles(
                    offset,
                    files.get("log"),
                    dir.resolve(name + ".index"),
                    dir.resolve(name + ".timeindex"),
                    Optional.ofNullable(files.get("txnindex"))));
        });
        for (String required : List.of(PARTITION_METADATA, LEADER_EPOCH_CHECKPOINT)) {
            if (!Files.exists(dir.resolve(required))) {
                throw new IllegalStateException(dir + " has no " + required);
            }
        }
        if (segments.isEmpty()) {
            throw new IllegalStateException(dir + " has no segment");
        }
        return new PartitionFiles(
                dir, segments, snapshots, dir.resolve(PARTITION_METADATA), dir.resolve(LEADER_EPOCH_CHECKPOINT));
    }
}
