package io.krabka.archive.verify;

import java.io.Serial;
import java.util.List;

/**
 * A bare {@code --expect-head HEX} over an archive of several partitions: it names none of them, so it is a usage
 * error rather than a mismatch.
 */
public final class AmbiguousExpectedHeadException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A bare head over the given partition directories. */
    public AmbiguousExpectedHeadException(List<String> partitionDirs) {
        super("--expect-head without a partition directory applies to exactly one partition, and "
                + partitionDirs.size() + " were checked: give each as PARTITION_DIR=HEX ("
                + String.join(", ", partitionDirs.subList(0, Math.min(5, partitionDirs.size())))
                + (partitionDirs.size() > 5 ? ", ..." : "") + ")");
    }
}
