package io.krabka.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Prints, from a JMH JSON result file, one row per pair of benchmarks: Krabka's median score, the reference's, and
 * their ratio. Run by {@code krabka-benchmarks/run}; also on its own, on a saved result:
 * {@code java -cp <classpath> io.krabka.bench.Ratios result.json}.
 */
public final class Ratios {
    private static final List<String> HEADER =
            List.of("benchmark", "against", "unit", "Krabka", "reference", "ratio", "rounds");

    private Ratios() {}

    /** Prints the table for the one file named; exit code 2 for a wrong call, 1 for a file it cannot read. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: Ratios <JMH result.json>");
            System.exit(2);
        }
        try {
            System.out.print(table(Pair.of(JmhJson.read(Path.of(args[0])))));
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("Ratios: cannot summarise " + args[0] + ": " + e.getMessage());
            System.exit(1);
        }
    }

    /** The table, columns aligned, with a line per mode saying which way the ratio is better. */
    static String table(List<Pair> pairs) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        TreeSet<String> modes = new TreeSet<>();
        for (Pair pair : pairs) {
            Score any = pair.krabka().or(pair::other).orElseThrow();
            modes.add(any.mode());
            rows.add(List.of(
                    pair.name(),
                    pair.reference().isEmpty() ? "-" : pair.reference(),
                    any.unit(),
                    median(pair.krabka()),
                    median(pair.other()),
                    pair.ratio()
                            .map(ratio -> String.format(Locale.ROOT, "%.2f", ratio))
                            .orElse("-"),
                    rounds(pair.krabka()) + "/" + rounds(pair.other())));
        }
        StringBuilder table = new StringBuilder();
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int column = 0; column < widths.length; column++) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        for (List<String> row : rows) {
            for (int column = 0; column < widths.length; column++) {
                String cell = row.get(column);
                // Names left, numbers right.
                table.append(
                        column < 3
                                ? cell + " ".repeat(widths[column] - cell.length())
                                : " ".repeat(widths[column] - cell.length()) + cell);
                table.append(column + 1 < widths.length ? "  " : System.lineSeparator());
            }
        }
        table.append(System.lineSeparator())
                .append("ratio = Krabka median / reference median, over rounds"
                        + " (forks x measurement iterations; Krabka/reference).")
                .append(System.lineSeparator());
        for (String mode : modes) {
            table.append(mode)
                    .append(": ")
                    .append(
                            mode.equals("thrpt")
                                    ? "operations per time, higher is better: a ratio above 1 means Krabka is faster."
                                    : "time per operation, lower is better: a ratio below 1 means Krabka is faster.")
                    .append(System.lineSeparator());
        }
        return table.toString();
    }

    private static String median(Optional<Score> score) {
        return score.map(present -> format(present.median())).orElse("-");
    }

    private static String rounds(Optional<Score> score) {
        return score.map(present -> Integer.toString(present.rounds().size())).orElse("0");
    }

    /** Four significant digits, without an exponent; whole numbers from 1000 up. */
    static String format(double value) {
        double magnitude = Math.abs(value);
        int decimals = magnitude == 0 || !Double.isFinite(magnitude)
                ? 0
                : Math.clamp(3 - (long) Math.floor(Math.log10(magnitude)), 0, 9);
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
