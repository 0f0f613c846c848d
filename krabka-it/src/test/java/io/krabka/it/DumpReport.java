package io.krabka.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What DumpLogSegments printed over a list of files, parsed: each file's dump, every error it reported, and the
 * files its raw output was saved to, for failure messages.
 *
 * @param dumps   the files' dumps, in the order dumped (a file DumpLogSegments stopped on has the part printed
 *                before it stopped)
 * @param errors  every error reported, in the order printed (summaries in Kafka's hash-map order of files)
 * @param outputs the raw outputs of the runs
 */
record DumpReport(List<FileDump> dumps, List<DumpError> errors, List<Path> outputs) {

    /** Copies the lists. */
    DumpReport {
        dumps = List.copyOf(dumps);
        errors = List.copyOf(errors);
        outputs = List.copyOf(outputs);
    }

    /** The reports one after another, as if of one run. */
    static DumpReport concat(List<DumpReport> reports) {
        List<FileDump> dumps = new ArrayList<>();
        List<DumpError> errors = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (DumpReport report : reports) {
            dumps.addAll(report.dumps());
            errors.addAll(report.errors());
            outputs.addAll(report.outputs());
        }
        return new DumpReport(dumps, errors, outputs.stream().distinct().toList());
    }

    /** The dump of a file, of the kind its suffix gives. */
    <T extends FileDump> Optional<T> dump(Path file, Class<T> kind) {
        Path absolute = file.toAbsolutePath().normalize();
        return dumps.stream()
                .filter(d -> d.file().equals(absolute))
                .filter(kind::isInstance)
                .map(kind::cast)
                .findFirst();
    }

    /** The dump of a {@code .log} file, which must have been dumped. */
    FileDump.LogDump log(Path file) {
        return dump(file, FileDump.LogDump.class)
                .orElseThrow(() -> new AssertionError("DumpLogSegments did not dump " + file + "; outputs " + outputs));
    }

    /** The part of the report about some of the files. */
    DumpReport only(List<Path> files) {
        return new DumpReport(
                dumps.stream().filter(d -> files.contains(d.file())).toList(),
                errors.stream().filter(e -> files.contains(e.file())).toList(),
                outputs);
    }

    /** The errors, one a line, and where the raw output is: for assertion messages. */
    String describe() {
        String listed = errors.isEmpty()
                ? "no error"
                : errors.stream().map(Object::toString).collect(Collectors.joining("\n  ", "errors:\n  ", ""));
        return listed + "\nDumpLogSegments output in " + outputs;
    }
}
