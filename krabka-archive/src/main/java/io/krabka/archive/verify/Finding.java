package io.krabka.archive.verify;

import io.krabka.archive.manifest.ChainHead;
import java.util.Objects;
import java.util.Optional;

/** One verdict line, in the original's words, and what it weighs. */
public sealed interface Finding {

    /** The line for stdout. */
    String line();

    /** What the finding makes of the archive; {@link VerifyGrade#OK} for one only reported. */
    VerifyGrade grade();

    /** The finding's name in JSON, snake_case. */
    String kind();

    /**
     * A partition's first break.
     *
     * @param partitionDir the partition directory
     * @param at           the break
     */
    record TamperDetected(String partitionDir, ChainBreak at) implements Finding {
        /** Validates the parts. */
        public TamperDetected {
            Objects.requireNonNull(partitionDir, "partitionDir");
            Objects.requireNonNull(at, "at");
        }

        @Override
        public String line() {
            return "TAMPER DETECTED at " + at.key()
                    + at.seqText().map(s -> " (seq " + s + ")").orElse("") + ": " + at.reason();
        }

        @Override
        public VerifyGrade grade() {
            return VerifyGrade.TAMPERED;
        }

        @Override
        public String kind() {
            return "tamper_detected";
        }
    }

    /**
     * A tip that is not the expected head, or an expected head with no partition or no manifest to compare with.
     *
     * @param partitionDir the partition, when the head was given for one
     * @param expected     the expected head
     * @param tip          the archive's tip; empty when there is none
     */
    record HeadMismatch(Optional<String> partitionDir, ChainHead expected, Optional<ChainHead> tip) implements Finding {
        /** Validates the parts. */
        public HeadMismatch {
            Objects.requireNonNull(partitionDir, "partitionDir");
            Objects.requireNonNull(expected, "expected");
            Objects.requireNonNull(tip, "tip");
        }

        @Override
        public String line() {
            return "HEAD MISMATCH: expected " + expected + ", archive tip "
                    + tip.map(ChainHead::hex).orElse("none")
                    + partitionDir.map(d -> " (" + d + ")").orElse("");
        }

        @Override
        public VerifyGrade grade() {
            return VerifyGrade.TAMPERED;
        }

        @Override
        public String kind() {
            return "head_mismatch";
        }
    }

    /**
     * Objects that no manifest and no trusted abandonment names: always reported, incomplete only when strict.
     *
     * @param count  how many, over all partitions and outside any
     * @param strict whether orphans are graded ({@code --strict-orphans})
     */
    record OrphanObjects(long count, boolean strict) implements Finding {
        @Override
        public String line() {
            return "ORPHAN OBJECTS: " + count + " object(s) with no manifest";
        }

        @Override
        public VerifyGrade grade() {
            return strict ? VerifyGrade.INCOMPLETE : VerifyGrade.OK;
        }

        @Override
        public String kind() {
            return "orphan_objects";
        }
    }

    /**
     * Chains that started fresh epochs after their first, which leaves the link between epochs unattested.
     *
     * @param restarts how many restarts over all partitions
     */
    record EpochRestarts(long restarts) implements Finding {
        @Override
        public String line() {
            return "INCOMPLETE ATTESTATION: chain restarted " + restarts + " time(s)";
        }

        @Override
        public VerifyGrade grade() {
            return VerifyGrade.INCOMPLETE;
        }

        @Override
        public String kind() {
            return "epoch_restarts";
        }
    }

    /**
     * Verified manifests whose signature attests nothing.
     *
     * @param unsigned  manifests without a signature
     * @param untrusted manifests signed under a key id not trusted, or carrying another public key
     */
    record UnattestedManifests(long unsigned, long untrusted) implements Finding {
        @Override
        public String line() {
            return "INCOMPLETE ATTESTATION: " + unsigned + " manifest(s) unsigned, " + untrusted
                    + " signed by an untrusted key";
        }

        @Override
        public VerifyGrade grade() {
            return VerifyGrade.INCOMPLETE;
        }

        @Override
        public String kind() {
            return "unattested_manifests";
        }
    }

    /**
     * Writes in parts that were started and never completed nor aborted: bytes the archive holds outside any
     * object.
     *
     * @param count  how many
     * @param sample the key of one of them
     */
    record IncompleteUploads(long count, String sample) implements Finding {
        /** Validates the parts. */
        public IncompleteUploads {
            Objects.requireNonNull(sample, "sample");
        }

        @Override
        public String line() {
            return "INCOMPLETE MULTIPART UPLOADS: " + count + " upload(s) neither completed nor aborted, e.g. "
                    + sample;
        }

        @Override
        public VerifyGrade grade() {
            return VerifyGrade.INCOMPLETE;
        }

        @Override
        public String kind() {
            return "incomplete_multipart_uploads";
        }
    }
}
