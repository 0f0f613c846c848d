package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The plugins an image holds, read from a profile file: one plugin name (its folder under the distribution's
 * {@code plugins/}) per line, or a single {@code *} for every plugin the distribution has. {@code #} starts a
 * comment; blank lines are ignored.
 *
 * @param name the profile's name: its file name without {@value #SUFFIX}
 * @param plugins the plugin names in the file's order; empty when {@code everyPlugin}
 * @param everyPlugin whether the profile is {@code *}
 */
record Profile(String name, List<String> plugins, boolean everyPlugin) {
    static final String SUFFIX = ".profile";
    private static final String EVERY = "*";
    private static final Pattern PLUGIN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    Profile {
        plugins = List.copyOf(plugins);
        if (everyPlugin && !plugins.isEmpty()) {
            throw new IllegalArgumentException("a profile of every plugin names none");
        }
    }

    /**
     * The profile a command line names: a value with a {@code /} is the path of a profile file, any other value
     * the name of one in {@code dir}.
     */
    static Profile load(Path dir, String nameOrPath) {
        Path file;
        if (nameOrPath.contains("/")) {
            file = Path.of(nameOrPath);
        } else {
            file = dir.resolve(nameOrPath + SUFFIX);
            if (!Files.isRegularFile(file)) {
                throw new ImageException(
                        "unknown profile '" + nameOrPath + "'; profiles: " + String.join(", ", names(dir)));
            }
        }
        String fileName = file.getFileName().toString();
        String name = fileName.endsWith(SUFFIX) ? fileName.substring(0, fileName.length() - SUFFIX.length()) : fileName;
        try {
            return parse(name, Files.readAllLines(file));
        } catch (IOException e) {
            throw new ImageException("cannot read profile " + file + ": " + e, e);
        }
    }

    /** The names of the profiles in {@code dir}, sorted. */
    static List<String> names(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(SUFFIX))
                    .map(f -> f.substring(0, f.length() - SUFFIX.length()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new ImageException("cannot list the profiles in " + dir + ": " + e, e);
        }
    }

    /** Reads a profile's lines; any line that is not a plugin name, or a second mention of one, is an error. */
    static Profile parse(String name, List<String> lines) {
        List<String> plugins = new ArrayList<>();
        boolean every = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int comment = line.indexOf('#');
            String entry = (comment < 0 ? line : line.substring(0, comment)).strip();
            String where = "profile " + name + ", line " + (i + 1) + ": ";
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals(EVERY)) {
                every = true;
            } else if (!PLUGIN_NAME.matcher(entry).matches()) {
                throw new ImageException(
                        where + "'" + entry + "' is not a plugin name (one per line, or * for every plugin)");
            } else if (plugins.contains(entry)) {
                throw new ImageException(where + "plugin " + entry + " is named twice");
            } else {
                plugins.add(entry);
            }
            if (every && !plugins.isEmpty()) {
                throw new ImageException(where + "* (every plugin) cannot be combined with plugin names");
            }
        }
        if (!every && plugins.isEmpty()) {
            throw new ImageException("profile " + name + " names no plugin (one per line, or * for every plugin)");
        }
        return new Profile(name, plugins, every);
    }
}
