package io.krabka.it;

import io.krabka.it.LoggedBatch.LoggedRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A partition's log as kafka-clients' own record classes decode it, segment by segment.
 *
 * @param files    its files
 * @param segments the batches of each segment, in the order of {@link PartitionFiles#segments()}
 */
record DecodedPartition(PartitionFiles files, List<List<LoggedBatch>> segments) {

    /** Copies the lists. */
    DecodedPartition {
        segments = segments.stream().map(List::copyOf).toList();
    }

    /**
     * Decodes every segment.
     *
     * @throws AssertionError if a batch fails its CRC or is not magic 2, or a segment ends inside a batch
     */
    static DecodedPartition decode(PartitionFiles files) throws IOException {
        List<List<LoggedBatch>> segments = new ArrayList<>();
        for (PartitionFiles.SegmentFiles segment : files.segments()) {
            segments.add(LoggedBatch.decode(
                    Files.readAllBytes(segment.log()), segment.log().toString()));
        }
        return new DecodedPartition(files, segments);
    }

    /** Every batch, in log order. */
    List<LoggedBatch> batches() {
        return segments.stream().flatMap(List::stream).toList();
    }

    /** Every record, markers included, in log order. */
    List<LoggedRecord> records() {
        return batches().stream().flatMap(b -> b.records().stream()).toList();
    }
}
