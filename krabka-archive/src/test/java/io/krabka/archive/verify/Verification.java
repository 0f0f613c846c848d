package io.krabka.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.testkit.ObjectStores;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One run of the verifier over a store, with its verdict, and the assertions the tests share. */
record Verification(ArchiveVerifyReport report, ArchiveVerdict verdict) {

    /** The local plugin's store on a directory. */
    static ObjectStore localStore(Path dir) throws Exception {
        return ObjectStores.open("local", Map.of("dir", dir.toString()));
    }

    static Verification run(ObjectStore store, VerifyOptions options) throws Exception {
        ArchiveVerifyReport report = ArchiveVerifier.verify(store, options, VerifyProgress.NONE);
        return new Verification(report, VerifyGrader.grade(report, options));
    }

    List<String> lines() {
        return VerifyTextRenderer.lines(report, verdict);
    }

    PartitionVerifyReport partition(String directory) {
        return report.partitions().stream()
                .filter(p -> p.partitionDir().equals(directory))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no partition " + directory + " in " + report.partitions()));
    }

    /** Asserts the grade and that the verdict's first line is {@code line}. */
    Verification assertVerdict(VerifyGrade grade, String line) {
        assertEquals(grade, verdict.grade(), () -> String.join("\n", lines()));
        assertEquals(line, verdict.lines().getFirst(), () -> String.join("\n", lines()));
        return this;
    }

    /** Asserts that the partition broke at the manifest {@code key}, with {@code seq}, for a reason saying so. */
    Verification assertBreak(String directory, String key, Optional<Long> seq, String reason) {
        ChainBreak at = partition(directory)
                .firstBreak()
                .orElseThrow(() -> new AssertionError("no break in " + directory + ":\n" + String.join("\n", lines())));
        assertEquals(key, at.key());
        assertEquals(seq, at.seq());
        assertTrue(at.reason().contains(reason), at.reason());
        assertEquals(VerifyGrade.TAMPERED, verdict.grade());
        String expectedLine =
                "TAMPER DETECTED at " + key + seq.map(s -> " (seq " + s + ")").orElse("") + ": " + at.reason();
        assertTrue(verdict.lines().contains(expectedLine), () -> String.join("\n", lines()));
        return this;
    }
}
