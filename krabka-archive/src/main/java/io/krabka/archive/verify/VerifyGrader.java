package io.krabka.archive.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grades a report in the original's order ({@code worm-verify}'s {@code grade()}): TAMPER DETECTED, HEAD MISMATCH,
 * ORPHAN OBJECTS (reported always, graded only when strict), INCOMPLETE ATTESTATION for restarts (unless allowed)
 * and for unsigned or untrusted manifests, INCOMPLETE MULTIPART UPLOADS; else OK. Unlike the original, an OK never
 * claims more than the archive shows: without expected heads it says the tail is unverified.
 */
public final class VerifyGrader {

    private VerifyGrader() {}

    /** The verdict on a report under the options' grading flags. */
    public static ArchiveVerdict grade(ArchiveVerifyReport report, VerifyOptions options) {
        List<Finding> findings = new ArrayList<>();
        for (PartitionVerifyReport partition : report.partitions()) {
            partition
                    .firstBreak()
                    .ifPresent(b -> findings.add(new Finding.TamperDetected(partition.partitionDir(), b)));
        }
        for (PartitionVerifyReport partition : report.partitions()) {
            if (partition.tail() == TailStatus.MISMATCH) {
                findings.add(new Finding.HeadMismatch(
                        Optional.of(partition.partitionDir()),
                        partition.expectedHead().orElseThrow(),
                        partition.head()));
            }
        }
        report.unmatchedHeads()
                .forEach(u -> findings.add(new Finding.HeadMismatch(u.partitionDir(), u.expected(), Optional.empty())));
        if (report.orphanObjects() > 0) {
            findings.add(new Finding.OrphanObjects(report.orphanObjects(), options.strictOrphans()));
        }
        long restarts = report.partitions().stream()
                .mapToLong(PartitionVerifyReport::epochRestarts)
                .sum();
        if (restarts > 0 && !options.allowEpochRestarts()) {
            findings.add(new Finding.EpochRestarts(restarts));
        }
        long unsigned = report.partitions().stream()
                .mapToLong(PartitionVerifyReport::unsignedManifests)
                .sum();
        long untrusted = report.partitions().stream()
                .mapToLong(PartitionVerifyReport::untrustedManifests)
                .sum();
        if (unsigned + untrusted > 0) {
            findings.add(new Finding.UnattestedManifests(unsigned, untrusted));
        }
        if (!report.incompleteUploads().isEmpty()) {
            findings.add(new Finding.IncompleteUploads(
                    report.incompleteUploads().size(),
                    report.incompleteUploads().getFirst().key()));
        }
        VerifyGrade grade = findings.stream().map(Finding::grade).reduce(VerifyGrade.OK, VerifyGrade::worst);
        return new ArchiveVerdict(
                grade, findings, grade == VerifyGrade.OK ? Optional.of(okLine(report, restarts)) : Optional.empty());
    }

    private static String okLine(ArchiveVerifyReport report, long restarts) {
        List<PartitionVerifyReport> partitions = report.partitions();
        if (partitions.isEmpty()) {
            return "OK: empty archive";
        }
        long unverifiedTails = partitions.stream()
                .filter(p -> p.tail() == TailStatus.UNVERIFIED)
                .count();
        String tail = unverifiedTails == 0
                ? "tail verified against --expect-head"
                : unverifiedTails == partitions.size()
                        ? "tail unverified (no --expect-head)"
                        : "tail unverified for " + unverifiedTails + " of " + partitions.size()
                                + " partition(s) (no --expect-head)";
        return "OK: " + report.manifests() + " manifests over " + partitions.size() + " partition(s), chain continuous"
                + (restarts > 0 ? " (" + restarts + " epoch restart(s) allowed)" : "") + ", all signatures valid; "
                + tail;
    }
}
