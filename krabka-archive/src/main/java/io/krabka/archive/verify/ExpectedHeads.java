package io.krabka.archive.verify;

import io.krabka.archive.manifest.ChainHead;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The heads the archive's partitions are expected to end at, remembered outside the archive: the only way to see
 * a tail cut off. Given as {@code --expect-head [PARTITION_DIR=]HEX}; a bare head applies when exactly one
 * partition is checked.
 *
 * @param bare        the head for the single partition checked, if given without a directory
 * @param byDirectory heads by partition directory name
 */
public record ExpectedHeads(Optional<ChainHead> bare, Map<String, ChainHead> byDirectory) {

    /** No expected head: every tail is unverified. */
    public static final ExpectedHeads NONE = new ExpectedHeads(Optional.empty(), Map.of());

    /** Validates the parts and freezes the map. */
    public ExpectedHeads {
        Objects.requireNonNull(bare, "bare");
        byDirectory = Collections.unmodifiableMap(new TreeMap<>(byDirectory));
    }

    /**
     * Parses {@code --expect-head} values: {@code HEX} or {@code PARTITION_DIR=HEX}, HEX being 64 hex digits.
     *
     * @throws IllegalArgumentException for a malformed value, a second bare head, or a directory given twice
     */
    public static ExpectedHeads parse(List<String> values) {
        Optional<ChainHead> bare = Optional.empty();
        Map<String, ChainHead> byDirectory = new TreeMap<>();
        for (String value : values) {
            int equals = value.lastIndexOf('=');
            String hex = value.substring(equals + 1).strip();
            ChainHead head;
            try {
                head = ChainHead.fromHex(hex);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--expect-head " + value + ": the head must be 64 hex digits", e);
            }
            if (equals < 0) {
                if (bare.isPresent()) {
                    throw new IllegalArgumentException("--expect-head without a partition directory is given twice: "
                            + "name each partition as PARTITION_DIR=HEX");
                }
                bare = Optional.of(head);
            } else {
                String directory = value.substring(0, equals).strip();
                if (directory.isEmpty() || directory.contains("/")) {
                    throw new IllegalArgumentException("--expect-head " + value
                            + ": the partition directory is a name like orders-0-<topic id>, without '/'");
                }
                if (byDirectory.put(directory, head) != null) {
                    throw new IllegalArgumentException("--expect-head is given twice for " + directory);
                }
            }
        }
        return new ExpectedHeads(bare, byDirectory);
    }

    /** Whether any head is expected. */
    public boolean isEmpty() {
        return bare.isEmpty() && byDirectory.isEmpty();
    }
}
