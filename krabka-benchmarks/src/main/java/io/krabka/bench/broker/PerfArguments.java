package io.krabka.bench.broker;

import java.util.List;

/**
 * The arguments of the whole-broker benchmarks: {@code --rounds N} and {@code --megabytes M}; a wrong one ends
 * the run with one line and exit 2.
 *
 * @param rounds    how many rounds to run
 * @param megabytes how many megabytes each measurement moves
 */
record PerfArguments(int rounds, int megabytes) {

    /** Parses {@code args} over the defaults, for the tool named {@code tool}. */
    static PerfArguments parse(String tool, String[] args, int defaultRounds, int defaultMegabytes) {
        int rounds = defaultRounds;
        int megabytes = defaultMegabytes;
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--rounds" -> rounds = positive(tool, args[i], value);
                case "--megabytes" -> megabytes = positive(tool, args[i], value);
                default -> usage(tool, "unknown argument " + args[i]);
            }
        }
        return new PerfArguments(rounds, megabytes);
    }

    /** The median of measurements; NaN for none. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static int positive(String tool, String flag, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        usage(tool, flag + " needs a positive whole number, not '" + value + "'");
        return 0;
    }

    private static void usage(String tool, String problem) {
        System.err.println(tool + ": " + problem + " (usage: " + tool + " [--rounds N] [--megabytes M])");
        System.exit(2);
    }
}
