package io.krabka.archive.verify;

import io.krabka.archive.manifest.ChainHead;
import java.util.ArrayList;
import java.util.List;

/**
 * The verdict and report as lines for stdout: the verdict lines, then a line per partition
 * ({@code   <dir>: tip <hex>, <n> manifests, offsets [a, b], ...}) followed by its protection lines and anything
 * else worth a look (orphans, abandoned copies, rejected abandonment records), then the objects outside any
 * partition.
 */
public final class VerifyTextRenderer {

    /** How many keys of one kind are listed before the rest are only counted. */
    private static final int LISTED = 10;

    private VerifyTextRenderer() {}

    /** The lines. */
    public static List<String> lines(ArchiveVerifyReport report, ArchiveVerdict verdict) {
        List<String> lines = new ArrayList<>(verdict.lines());
        for (PartitionVerifyReport partition : report.partitions()) {
            lines.add(partitionLine(partition));
            lines.add("    create precondition: " + protection(partition.createPreconditionObjects(), partition));
            lines.add("    bucket retention: " + protection(partition.bucketRetentionObjects(), partition)
                    + (partition.bucketRetentionObjects().count() > 0
                            ? " (" + partition.complianceRetentionObjects() + " COMPLIANCE)"
                            : ""));
            partition
                    .offsetGaps()
                    .forEach(g -> lines.add(
                            "    offset gap: [" + g.firstMissing() + ", " + g.lastMissing() + "] in no manifest"));
            partition
                    .abandonedCopies()
                    .forEach(c -> lines.add("    abandoned copy: segment at offsets ["
                            + c.startOffset() + ", " + c.endOffset() + "], "
                            + c.objects().size() + " object(s), record "
                            + c.recordKey()));
            partition
                    .rejectedAbandonmentRecords()
                    .forEach(r -> lines.add("    abandonment record " + r.key() + " excuses nothing: " + r.reason()));
            listed(lines, "    orphan: ", partition.orphanObjects());
        }
        listed(lines, "  outside any partition: ", report.globalOrphanObjects());
        return lines;
    }

    private static String partitionLine(PartitionVerifyReport p) {
        StringBuilder line = new StringBuilder("  ")
                .append(p.partitionDir())
                .append(": tip ")
                .append(p.head().map(ChainHead::hex).orElse("none"))
                .append(", ")
                .append(p.manifests())
                .append(" manifests");
        if (p.startOffset().isPresent()) {
            line.append(", offsets [")
                    .append(p.startOffset().get())
                    .append(", ")
                    .append(p.endOffset().orElseThrow())
                    .append("]");
        }
        line.append(", ")
                .append(p.epochs().size())
                .append(" epoch(s), ")
                .append(p.objectsChecked())
                .append(" objects checked");
        if (p.bytesChecked() > 0) {
            line.append(" (").append(p.bytesChecked()).append(" bytes hashed)");
        }
        if (!p.abandonedCopies().isEmpty()) {
            line.append(", ")
                    .append(p.abandonedCopies().size())
                    .append(" abandoned cop")
                    .append(p.abandonedCopies().size() == 1 ? "y" : "ies");
        }
        if (!p.orphanObjects().isEmpty()) {
            line.append(", ").append(p.orphanObjects().size()).append(" orphan(s)");
        }
        p.firstBreak()
                .ifPresent(b -> line.append(", broken at ")
                        .append(b.key())
                        .append(b.seqText().map(s -> " (seq " + s + ")").orElse("")));
        line.append(
                switch (p.tail()) {
                    case UNVERIFIED -> "; tail unverified";
                    case VERIFIED -> "; tail verified";
                    case MISMATCH -> "; tail is not the expected head";
                });
        return line.toString();
    }

    private static String protection(ProtectionCount count, PartitionVerifyReport p) {
        if (count.count() == 0) {
            return "none of " + p.objectsChecked() + " objects";
        }
        return count.count() + " of " + p.objectsChecked() + " objects, e.g. "
                + count.sample().orElseThrow();
    }

    private static void listed(List<String> lines, String lead, List<String> keys) {
        keys.stream().limit(LISTED).forEach(k -> lines.add(lead + k));
        if (keys.size() > LISTED) {
            lines.add(lead + "... and " + (keys.size() - LISTED) + " more");
        }
    }
}
