package io.krabka.bench.broker;

import java.util.List;

/**
 * The arguments of the whole-broker benchmarks: {@code --rounds N}, {@code --megabytes M} and, for the tools that
 * take it, {@code --partitions P}; a wrong one ends the run with one line and exit 2.
 *
 * @param rounds     how many rounds to run
 * @param megabytes  how many megabytes each measurement moves
 * @param partitions how many partitions each topic has
 */
record PerfArguments(int rounds, int megabytes, int partitions) {

    /** Parses {@code args} over the defaults, for the tool named {@code tool}; {@code --partitions} is refused. */
    static PerfArguments parse(String tool, String[] args, int defaultRounds, int defaultMegabytes) {
        return parse(tool, args, defaultRounds, defaultMegabytes, false);
    }

    /** Parses {@code args} over the defaults, for the tool named {@code tool}; one partition unless given. */
    static PerfArguments parse(
            String tool, String[] args, int defaultRounds, int defaultMegabytes, boolean takesPartitions) {
        int rounds = defaultRounds;
        int megabytes = defaultMegabytes;
        int partitions = 1;
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            String flag = takesPartitions || !args[i].equals("--partitions") ? args[i] : "";
            switch (flag) {
                case "--rounds" -> rounds = positive(tool, takesPartitions, flag, value);
                case "--megabytes" -> megabytes = positive(tool, takesPartitions, flag, value);
                case "--partitions" -> partitions = positive(tool, takesPartitions, flag, value);
                default -> usage(tool, takesPartitions, "unknown argument " + args[i]);
            }
        }
        return new PerfArguments(rounds, megabytes, partitions);
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

    private static int positive(String tool, boolean takesPartitions, String flag, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        usage(tool, takesPartitions, flag + " needs a positive whole number, not '" + value + "'");
        return 0;
    }

    private static void usage(String tool, boolean takesPartitions, String problem) {
        System.err.println(tool + ": " + problem + " (usage: " + tool + " [--rounds N] [--megabytes M]"
                + (takesPartitions ? " [--partitions P])" : ")"));
        System.exit(2);
    }
}
