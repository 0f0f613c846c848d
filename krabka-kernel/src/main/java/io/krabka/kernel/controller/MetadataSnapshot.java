package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A KRaft snapshot of the metadata, {@code <end offset:020d>-<epoch:010d>.checkpoint} in {@code __cluster_metadata-0}:
 * the image as of the record before its end offset, in record batches as the log holds them. Kafka takes one every
 * {@code metadata.log.max.snapshot.interval.ms} or so many bytes, and may then delete the log's segments below it.
 * The bootstrap snapshot {@code krabka format} and Kafka's format tool write, at offset 0, is not one of them.
 *
 * @param file      the snapshot's file
 * @param endOffset the offset of the first record of the log after it
 * @param epoch     the leader epoch of the record before it
 */
record MetadataSnapshot(Path file, long endOffset, int epoch) {

    private static final Pattern NAME = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");

    MetadataSnapshot {
        Objects.requireNonNull(file, "file");
    }

    /** The snapshot of the greatest end offset in {@code partitionDir}, if there is one past the bootstrap. */
    static Optional<MetadataSnapshot> latest(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(MetadataSnapshot::parse)
                    .flatMap(Optional::stream)
                    .filter(snapshot -> snapshot.endOffset() > 0)
                    .max(Comparator.comparingLong(MetadataSnapshot::endOffset));
        }
    }

    private static Optional<MetadataSnapshot> parse(Path file) {
        Matcher name = NAME.matcher(file.getFileName().toString());
        return name.matches() && Files.isRegularFile(file)
                ? Optional.of(
                        new MetadataSnapshot(file, Long.parseLong(name.group(1)), Integer.parseInt(name.group(2))))
                : Optional.empty();
    }

    /**
     * The snapshot's records as one batch at the offset before its end, where they leave the image.
     *
     * @throws io.krabka.kernel.metadata.MetadataParseException if a record is not one Kafka writes
     */
    MetadataBatch read() throws IOException {
        List<MetadataBatch> batches = MetadataBatch.readAll(ByteBuffer.wrap(Files.readAllBytes(file)), file.toString());
        return new MetadataBatch(
                endOffset - 1,
                endOffset - 1,
                batches.stream().flatMap(batch -> batch.records().stream()).toList());
    }
}
