package io.krabka.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the output of one DumpLogSegments run (stdout and stderr merged, in the order printed): a section per file
 * from its {@code Dumping <path>}; then the summaries of index mismatches, time index errors and non-consecutive
 * offsets that it prints, file by file, after all files; or, if it stopped, {@code Exception in thread "main"} and
 * a stack trace.
 */
final class DumpOutputParser {
    private static final String DUMPING = "Dumping ";
    private static final String EXCEPTION = "Exception in thread \"main\" ";
    private static final String CAUSED_BY = "Caused by: ";

    /** A summary's heading, naming a file, and the form of its lines. */
    private record Summary(String heading, Pattern line, BiFunction<Path, Matcher, DumpError> error) {}

    private static final List<Summary> SUMMARIES = List.of(
            new Summary(
                    "Mismatches in :",
                    Pattern.compile(" {2}Index offset: (-?\\d+), log offset: (-?\\d+)"),
                    (f, m) -> new DumpError.OffsetIndexMismatch(
                            f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))),
            new Summary(
                    "Found timestamp mismatch in :",
                    Pattern.compile(" {2}Index timestamp: (-?\\d+), log timestamp: (-?\\d+)"),
                    (f, m) ->
                            new DumpError.TimestampMismatch(f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))),
            new Summary(
                    "Found out of order timestamp in :",
                    Pattern.compile(" {2}Index timestamp: (-?\\d+), Previously indexed timestamp: (-?\\d+)"),
                    (f, m) -> new DumpError.TimestampOutOfOrder(
                            f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))),
            new Summary(
                    "The following indexed offsets are not found in :",
                    Pattern.compile("Indexed offset: (-?\\d+), found log offset: (-?\\d+)"),
                    (f, m) -> new DumpError.IndexedOffsetNotFound(
                            f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))),
            new Summary(
                    "Non-consecutive offsets in ",
                    Pattern.compile(" {2}(-?\\d+) is followed by (-?\\d+)"),
                    (f, m) -> m.group(1).equals("-1")
                            ? null
                            : new DumpError.NonConsecutiveOffsets(
                                    f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))));

    private DumpOutputParser() {}

    /**
     * Parses the output of a run over {@code files} (absolute paths, as given to it), saved in {@code output}.
     *
     * @throws IllegalStateException if it printed anything before its first file, or named a file it was not given
     */
    static DumpReport parse(List<String> lines, List<Path> files, Path output) {
        Function<String, Path> given = text -> {
            Path file = Path.of(text);
            if (!files.contains(file)) {
                throw new IllegalStateException(
                        "DumpLogSegments named a file it was not given, " + text + "; see " + output);
            }
            return file;
        };
        Map<Path, List<String>> sections = new LinkedHashMap<>();
        List<DumpError> later = new ArrayList<>();
        Path current = null;
        Summary summary = null;
        Path summarized = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Summary heading = heading(line);
            Matcher m = summary == null ? null : summary.line().matcher(line);
            if (line.startsWith(DUMPING)) {
                current = given.apply(line.substring(DUMPING.length()));
                sections.put(current, new ArrayList<>());
                summary = null;
            } else if (heading != null) {
                summary = heading;
                summarized = given.apply(line.substring(heading.heading().length()));
            } else if (line.startsWith(EXCEPTION) && current != null) {
                later.add(new DumpError.Aborted(
                        current, line.substring(EXCEPTION.length()), lastCause(lines.subList(i + 1, lines.size()))));
                break; // the rest is its stack trace
            } else if (m != null && m.matches()) {
                DumpError error = summary.error().apply(summarized, m);
                if (error != null) {
                    later.add(error);
                }
            } else if (current != null && summary == null) {
                sections.get(current).add(line);
            } else {
                throw new IllegalStateException(
                        "DumpLogSegments printed " + (current == null ? "before any file" : "among its summaries")
                                + ": '" + line + "'; see " + output);
            }
        }
        List<FileDump> dumps = new ArrayList<>();
        List<DumpError> errors = new ArrayList<>();
        sections.forEach((file, section) -> {
            DumpSection.Parsed parsed = DumpSection.parse(file, section);
            dumps.add(parsed.dump());
            errors.addAll(parsed.errors());
        });
        errors.addAll(later);
        return new DumpReport(dumps, errors, List.of(output));
    }

    private static Summary heading(String line) {
        return SUMMARIES.stream()
                .filter(s -> line.startsWith(s.heading()))
                .findFirst()
                .orElse(null);
    }

    private static String lastCause(List<String> trace) {
        return trace.stream()
                .filter(l -> l.startsWith(CAUSED_BY))
                .map(l -> l.substring(CAUSED_BY.length()))
                .reduce((first, second) -> second)
                .orElse("");
    }
}
