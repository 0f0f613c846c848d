package io.krabka.archive.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The graded outcome of a verification: the grade, every finding in the original's order, and the closing line.
 *
 * @param grade    the gravest finding's grade
 * @param findings the findings, in grading order: tampers, head mismatches, orphans, restarts, unattested
 *                 manifests, incomplete uploads
 * @param okLine   the line that closes an OK verdict ({@code OK: ...}); empty otherwise
 */
public record ArchiveVerdict(VerifyGrade grade, List<Finding> findings, Optional<String> okLine) {

    /** Validates the parts and freezes the findings. */
    public ArchiveVerdict {
        Objects.requireNonNull(grade, "grade");
        findings = List.copyOf(findings);
        Objects.requireNonNull(okLine, "okLine");
        if (okLine.isPresent() != (grade == VerifyGrade.OK)) {
            throw new IllegalArgumentException("an OK line goes with an OK grade only: " + grade + ", " + okLine);
        }
    }

    /** The verdict lines for stdout: every finding, then the OK line when the archive is OK. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        findings.forEach(f -> lines.add(f.line()));
        okLine.ifPresent(lines::add);
        return lines;
    }

    /** The line that decided the grade: the first finding of that grade, or the OK line. */
    public String summary() {
        return okLine.orElseGet(() -> findings.stream()
                .filter(f -> f.grade() == grade)
                .findFirst()
                .orElseThrow()
                .line());
    }
}
