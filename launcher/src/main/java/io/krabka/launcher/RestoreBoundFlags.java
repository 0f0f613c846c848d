package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.repeatable;
import static io.krabka.launcher.CommandOptions.value;
import static io.krabka.launcher.CommandOptions.values;

import io.krabka.kernel.restore.bound.BoundArguments;
import io.krabka.kernel.restore.bound.HeaderExclusion;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.bound.KeyExclusion;
import io.krabka.kernel.restore.bound.OffsetBound;
import io.krabka.kernel.restore.bound.OffsetExclusion;
import io.krabka.kernel.restore.bound.ProducerExclusion;
import io.krabka.kernel.restore.bound.TimestampBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/**
 * {@code krabka restore}'s cut and exclusion flags, named by the kernel's bound types ({@code FLAG}) and parsed by
 * them, so the flag, its value's form and its error message live in one place.
 */
final class RestoreBoundFlags {

    private RestoreBoundFlags() {}

    /** Adds the flags to {@code options}. */
    static Options addTo(Options options) {
        return options.addOption(repeatable(
                        name(OffsetBound.FLAG), "T:P=N", "Bound: keep offsets at or below N in partition P of topic T"))
                .addOption(value(
                        name(TimestampBound.FLAG),
                        "RFC3339|EPOCH_MS",
                        "Bound: keep records with a timestamp before this instant (RFC 3339 with a zone, or epoch ms)"))
                .addOption(repeatable(
                        name(OffsetExclusion.FLAG),
                        "T:P=A..B",
                        "Bound: leave out offsets A to B, B exclusive (A..=B includes it)"))
                .addOption(repeatable(
                        name(KeyExclusion.FLAG), "REGEX", "Bound: leave out records whose key's bytes match"))
                .addOption(repeatable(
                        name(HeaderExclusion.FLAG),
                        "NAME=REGEX",
                        "Bound: leave out records with a header NAME whose value's bytes match"))
                .addOption(repeatable(
                        name(ProducerExclusion.FLAG), "ID", "Bound: leave out the records of this producer id"));
    }

    /**
     * The flags' values, each parsed but not yet checked against the others.
     *
     * @throws InvalidRestoreArgumentException naming the first value that does not parse
     */
    static BoundArguments arguments(CommandLine line) throws InvalidRestoreArgumentException {
        Optional<TimestampBound> toTimestamp = line.hasOption(name(TimestampBound.FLAG))
                ? Optional.of(TimestampBound.parse(line.getOptionValue(name(TimestampBound.FLAG))))
                : Optional.empty();
        return new BoundArguments(
                parsed(line, OffsetBound.FLAG, OffsetBound::parse),
                toTimestamp,
                parsed(line, OffsetExclusion.FLAG, OffsetExclusion::parse),
                parsed(line, KeyExclusion.FLAG, KeyExclusion::parse),
                parsed(line, HeaderExclusion.FLAG, HeaderExclusion::parse),
                parsed(line, ProducerExclusion.FLAG, ProducerExclusion::parse));
    }

    private static <T> List<T> parsed(CommandLine line, String flag, Parser<T> parser)
            throws InvalidRestoreArgumentException {
        List<T> parsed = new ArrayList<>();
        for (String value : values(line, name(flag))) {
            parsed.add(parser.parse(value));
        }
        return parsed;
    }

    private static String name(String flag) {
        return flag.substring("--".length());
    }

    /** One bound type's {@code parse}. */
    @FunctionalInterface
    private interface Parser<T> {
        T parse(String value) throws InvalidRestoreArgumentException;
    }
}
