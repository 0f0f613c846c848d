package io.krabka.kernel.restore.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A restore report as lines for an operator, in the original Krabka's words: what was written, then one line per
 * partition, then what was left out or could not be told. Counts carry thousands separators; segment ids are in
 * Kafka's form, the one the archive's object keys carry.
 */
public final class RestoreTextReport {
    private static final String INDENT = "  ";

    private RestoreTextReport() {}

    /** The report's lines, without line ends. */
    public static List<String> lines(RestoreReport report) {
        List<String> lines = new ArrayList<>();
        lines.add((report.dryRun() ? "krabka restore: dry run against " : "krabka restore: wrote ") + report.logDir());
        lines.add("cluster id: " + report.clusterId());
        report.partitions().forEach(partition -> lines.add(INDENT + partition(partition)));
        for (SkippedSegment skipped : report.skipped()) {
            lines.add("skipped " + skipped.topic() + " partition " + skipped.partition() + " segment "
                    + skipped.segmentId() + ": " + skipped.reason());
        }
        authentication(report, lines);
        metadata(report.metadata(), lines);
        remoteLogMetadata(report.remoteLogMetadata(), lines);
        if (report.unrecognizedKeys() > 0) {
            lines.add("unrecognized keys: " + count(report.unrecognizedKeys())
                    + " under the prefix belong to no segment, such as "
                    + String.join(", ", report.unrecognizedSample()));
        }
        return List.copyOf(lines);
    }

    private static String partition(PartitionReport partition) {
        String line = partition.topic() + " partition " + partition.partition() + ": "
                + count(partition.segments().size()) + (partition.segments().size() == 1 ? " segment" : " segments");
        if (partition.segments().isEmpty()) {
            return line;
        }
        return line + ", offsets [" + count(partition.firstOffset().orElseThrow()) + ", "
                + count(partition.lastOffset().orElseThrow()) + "], " + count(partition.recordsKept())
                + " records kept, " + count(partition.recordsDropped()) + " dropped ("
                + count(partition.batchesRewritten()) + " batches rewritten, " + count(partition.batchesEmptied())
                + " batches emptied)";
    }

    private static void authentication(RestoreReport report, List<String> lines) {
        if (report.authentication().isEmpty()) {
            lines.add("not authenticated: no --worm-key-id was given, so the segment copies were checked for framing "
                    + "and CRCs only, not against signed manifests");
            return;
        }
        AuthenticationReport auth = report.authentication().get();
        lines.add("authenticated: " + count(auth.partitions()) + " partitions, " + count(auth.manifests())
                + " manifests, " + count(auth.objects()) + " objects, under the trusted keys "
                + String.join(", ", auth.trustedKeys()));
        for (Map.Entry<String, String> head : auth.chainHeads().entrySet()) {
            lines.add(INDENT + head.getKey() + ": chain head " + head.getValue());
        }
        lines.add(
                auth.tailTruncationProtected()
                        ? "tail truncation: protected, every partition's chain head was given by --worm-expect-head"
                        : "tail truncation: not protected: removing a partition's newest manifests cannot be seen without "
                                + "--worm-expect-head for every partition");
    }

    private static void metadata(MetadataRestoreReport metadata, List<String> lines) {
        metadata.snapshot()
                .ifPresent(snapshot -> lines.add("metadata snapshot " + snapshot + ": "
                        + count(metadata.topicConfigs()) + " topic configs, " + count(metadata.accessControlEntries())
                        + " access control entries, " + count(metadata.clientQuotas()) + " client quotas, "
                        + count(metadata.scramCredentials()) + " SCRAM credentials, " + count(metadata.featureLevels())
                        + " feature levels"));
        if (!metadata.topicsWithoutConfiguration().isEmpty()) {
            lines.add("topics without configuration (restored with the defaults): "
                    + String.join(", ", metadata.topicsWithoutConfiguration()));
        }
        metadata.notRecovered().forEach(line -> lines.add("metadata not recovered: " + line));
    }

    private static void remoteLogMetadata(RemoteLogMetadataReport rlmm, List<String> lines) {
        rlmm.snapshot()
                .ifPresent(snapshot -> lines.add("remote log metadata snapshot " + snapshot + ": "
                        + count(rlmm.deletedSegmentsLeftOut()) + " deleted segments left out"));
        rlmm.notes().forEach(note -> lines.add("remote log metadata: " + note));
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
