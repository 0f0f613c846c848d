package io.krabka.plugin.rsm.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The paths of one segment's files in the tier, present or not.
 *
 * @param segment   the segment, as messages name it
 * @param directory the partition directory that holds them
 * @param paths     every {@link SegmentFileType} to its path
 */
record SegmentFiles(String segment, Path directory, Map<SegmentFileType, Path> paths) {

    /** Checks that every type has a path inside {@code directory}. */
    SegmentFiles {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(directory, "directory");
        paths = Collections.unmodifiableMap(new EnumMap<>(paths));
        for (SegmentFileType type : SegmentFileType.values()) {
            Path path = Objects.requireNonNull(paths.get(type), type.name());
            if (!directory.equals(path.getParent())) {
                throw new IllegalArgumentException(path + " is not in " + directory);
            }
        }
    }

    /** The path of one file. */
    Path path(SegmentFileType type) {
        return paths.get(type);
    }

    /** The required files that do not exist; empty for a complete segment. */
    List<SegmentFileType> missing() {
        return Arrays.stream(SegmentFileType.values())
                .filter(type -> !type.optional() && !Files.isRegularFile(paths.get(type)))
                .toList();
    }
}
