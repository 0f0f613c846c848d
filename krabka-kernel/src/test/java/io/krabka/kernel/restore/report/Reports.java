package io.krabka.kernel.restore.report;

import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** The reports the renderer tests render: one restore with every part filled, and a bare one. */
final class Reports {
    static final Uuid TOPIC_ID = new Uuid(0L, 1L);
    static final Uuid FIRST_SEGMENT = new Uuid(0L, 30L);
    static final Uuid SECOND_SEGMENT = new Uuid(0L, 31L);
    static final Uuid SKIPPED_SEGMENT = new Uuid(0L, 32L);

    private Reports() {}

    /** Two partitions of orders, one segment skipped, authenticated, from both snapshots. */
    static RestoreReport full() {
        PartitionReport orders0 = new PartitionReport(
                "orders",
                0,
                TOPIC_ID,
                List.of(
                        new SegmentOutcome(FIRST_SEGMENT, 0, 1_233, 40, 2, 1, 1_200, 34, 1_048_576),
                        new SegmentOutcome(SECOND_SEGMENT, 1_234, 12_345_678, 900, 0, 0, 12_344_445, 0, 4_000_000)));
        PartitionReport orders1 = new PartitionReport("orders", 1, TOPIC_ID, List.of());
        TreeMap<String, String> heads = new TreeMap<>();
        heads.put("orders-0-AAAAAAAAAAAAAAAAAAAAAQ", "ab".repeat(32));
        return new RestoreReport(
                false,
                Path.of("/var/krabka/data"),
                "MkU3OEVBNTcwNTJENDM2Qk",
                Optional.of(new AuthenticationReport(1, 2, 10, List.of("worm-2026-q3"), heads, false)),
                new MetadataRestoreReport(
                        Optional.of("/backup/00000000000000000100-0000000001.checkpoint"),
                        3,
                        4,
                        5,
                        6,
                        7,
                        List.of("payments"),
                        List.of("consumer group offsets: restore them with your own tooling")),
                new RemoteLogMetadataReport(
                        Optional.of("/backup/rlmm.snapshot"),
                        2,
                        List.of("topic audit is in the snapshot but not in the archive")),
                List.of(orders0, orders1),
                List.of(new SkippedSegment("orders", 0, SKIPPED_SEGMENT, "batch at byte 64 fails its CRC-32C")),
                3,
                List.of("stray.txt", "orders-0-AAAAAAAAAAAAAAAAAAAAAQ/notes"));
    }

    /** A dry run over an empty selection, unauthenticated, with no snapshot. */
    static RestoreReport bare() {
        return new RestoreReport(
                true,
                Path.of("/tmp/restore"),
                "MkU3OEVBNTcwNTJENDM2Qk",
                Optional.empty(),
                new MetadataRestoreReport(Optional.empty(), 0, 0, 0, 0, 0, List.of(), List.of()),
                new RemoteLogMetadataReport(Optional.empty(), 0, List.of()),
                List.of(),
                List.of(),
                0,
                List.of());
    }
}
