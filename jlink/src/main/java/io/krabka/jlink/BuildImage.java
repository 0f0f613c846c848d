package io.krabka.jlink;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The image builder's command line, run by {@code jlink/build-image}. */
public final class BuildImage {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;

    private static final List<String> VALUED = List.of("--profile", "--output", "--dist", "--profiles");
    private static final String PLUGIN_DIR = "--plugin-dir";
    private static final String USAGE_TEXT = """
            usage: jlink/build-image --profile NAME|FILE --output DIR [--plugin-dir DIR]... [--replace]
            Builds a runtime image: a JDK linked down to the modules Krabka needs, the kernel, the profile's plugins.
              --profile NAME|FILE  a profile of jlink/profiles (NAME.profile), or the path of a profile file (has a /)
              --output DIR         where the image goes; it must not exist, unless --replace
              --plugin-dir DIR     a plugin folder from elsewhere (a third party's jars), put into the image as
                                   plugins/<its name>/ with the JDK modules it needs; repeatable
              --replace            replace the image at DIR (only ever a Krabka image)
              --dist DIR           the distribution to build from (jlink/build-image passes jlink/target/dist)
              --profiles DIR       where profiles are found by name (jlink/build-image passes jlink/profiles)""";

    private BuildImage() {}

    /** Builds one image and exits with 0, 1 (failed) or 2 (wrong arguments). */
    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.println(USAGE_TEXT);
            return OK;
        }
        Map<String, String> options = new HashMap<>();
        List<Path> pluginDirs = new ArrayList<>();
        boolean replace = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--replace")) {
                replace = true;
            } else if (arg.equals(PLUGIN_DIR) && i + 1 < args.size()) {
                pluginDirs.add(Path.of(args.get(++i)));
            } else if (VALUED.contains(arg) && i + 1 < args.size()) {
                options.put(arg, args.get(++i));
            } else {
                return usage(
                        err,
                        VALUED.contains(arg) || arg.equals(PLUGIN_DIR)
                                ? arg + " needs a value"
                                : "unknown argument '" + arg + "'");
            }
        }
        for (String required : VALUED) {
            if (!options.containsKey(required)) {
                return usage(err, "missing " + required);
            }
        }
        try {
            Distribution distribution = new Distribution(Path.of(options.get("--dist")));
            Profile profile = Profile.load(Path.of(options.get("--profiles")), options.get("--profile"));
            ImageBuilder builder =
                    new ImageBuilder(distribution, new JdkModules(Tool.find("jdeps")), Tool.find("jlink"));
            Image image = builder.build(profile, pluginDirs, Path.of(options.get("--output")), replace);
            out.println("image " + image.home());
            out.println("  profile      " + profile.name());
            out.println("  plugins      " + String.join(", ", image.plugins()));
            out.println("  jdk modules  " + String.join(", ", image.jdkModules()));
            out.println("  smoke run    " + image.version());
            return OK;
        } catch (ImageException e) {
            err.println("build-image: " + e.getMessage());
            return FAILURE;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("build-image: " + problem);
        err.println(USAGE_TEXT);
        return USAGE;
    }
}
