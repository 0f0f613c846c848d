package io.krabka.kernel.restore.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The text report, line by line. */
class RestoreTextReportTest {

    @Test
    void aFullRestoreNamesEveryPartOnItsOwnLine() {
        assertEquals(
                List.of(
                        "krabka restore: wrote /var/krabka/data",
                        "cluster id: MkU3OEVBNTcwNTJENDM2Qk",
                        "  orders partition 0: 2 segments, offsets [0, 12,345,678], 12,345,645 records kept, 34 dropped "
                                + "(2 batches rewritten, 1 batches emptied)",
                        "  orders partition 1: 0 segments",
                        "skipped orders partition 0 segment AAAAAAAAAAAAAAAAAAAAIA: batch at byte 64 fails its CRC-32C",
                        "authenticated: 1 partitions, 2 manifests, 10 objects, under the trusted keys worm-2026-q3",
                        "  orders-0-AAAAAAAAAAAAAAAAAAAAAQ: chain head " + "ab".repeat(32),
                        "tail truncation: not protected: removing a partition's newest manifests cannot be seen without "
                                + "--worm-expect-head for every partition",
                        "metadata snapshot /backup/00000000000000000100-0000000001.checkpoint: 3 topic configs, 4 access "
                                + "control entries, 5 client quotas, 6 SCRAM credentials, 7 feature levels",
                        "topics without configuration (restored with the defaults): payments",
                        "metadata not recovered: consumer group offsets: restore them with your own tooling",
                        "remote log metadata snapshot /backup/rlmm.snapshot: 2 deleted segments left out",
                        "remote log metadata: topic audit is in the snapshot but not in the archive",
                        "unrecognized keys: 3 under the prefix belong to no segment, such as stray.txt, "
                                + "orders-0-AAAAAAAAAAAAAAAAAAAAAQ/notes"),
                RestoreTextReport.lines(Reports.full()));
    }

    @Test
    void aBareDryRunSaysItWasNotAuthenticated() {
        assertEquals(
                List.of(
                        "krabka restore: dry run against /tmp/restore",
                        "cluster id: MkU3OEVBNTcwNTJENDM2Qk",
                        "not authenticated: no --worm-key-id was given, so the segment copies were checked for framing and "
                                + "CRCs only, not against signed manifests"),
                RestoreTextReport.lines(Reports.bare()));
    }
}
