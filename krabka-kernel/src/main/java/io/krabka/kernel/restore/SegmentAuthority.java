package io.krabka.kernel.restore;

import io.krabka.kernel.restore.report.AuthenticationReport;
import java.io.InputStream;
import java.util.Optional;

/**
 * Who vouches for the archive's segment copies. The unauthenticated restore trusts the listing and checks the
 * bytes' framing and CRCs only; the authenticated one checks every byte consumed against a manifest signed by a
 * trusted key, and every manifest against its partition's chain.
 */
public interface SegmentAuthority {

    /** Vouches for every listed copy: the verify stage's framing and CRC checks are all there is. */
    SegmentAuthority UNAUTHENTICATED = new SegmentAuthority() {
        @Override
        public PartitionAuthority partition(ArchivedPartition partition) {
            return segment -> SegmentCheck.NONE;
        }

        @Override
        public Optional<AuthenticationReport> report() {
            return Optional.empty();
        }
    };

    /**
     * The authority over one partition's copies, once its chain is checked.
     *
     * @throws RestoreIntegrityException  if the partition's manifests or chain fail
     * @throws UnreadableArchiveException if its manifests cannot be read
     */
    PartitionAuthority partition(ArchivedPartition partition)
            throws RestoreIntegrityException, UnreadableArchiveException;

    /** What was authenticated, once every partition was; empty for the unauthenticated restore. */
    Optional<AuthenticationReport> report();

    /** The authority over one partition's copies. */
    @FunctionalInterface
    interface PartitionAuthority {
        /**
         * The check the segment's {@code .log} must pass as it is read.
         *
         * @throws RestoreIntegrityException if no manifest vouches for the copy, or its objects are not the ones claimed
         */
        SegmentCheck segment(ArchivedSegment segment) throws RestoreIntegrityException;
    }

    /** The check on one segment's {@code .log} as the verify stage reads it. */
    interface SegmentCheck {
        /** No check, and the newest version. */
        SegmentCheck NONE = new SegmentCheck() {};

        /** The version of the {@code .log} to read; empty for the newest. */
        default Optional<String> logVersion() {
            return Optional.empty();
        }

        /** The stream the verify stage reads: {@code in} itself, or a view that digests what passes. */
        default InputStream wrap(InputStream in) {
            return in;
        }

        /**
         * Called once the whole {@code .log} was read through {@link #wrap}.
         *
         * @throws RestoreIntegrityException if what was read is not what the manifest claims
         */
        default void finish() throws RestoreIntegrityException {}
    }
}
