package io.krabka.kernel.log.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Kafka's text checkpoint file: UTF-8 lines, the version on the first, the number of entries on the second, then
 * one entry per line, each line ending in a newline. Written whole to {@code <name>.tmp}, synced and renamed over
 * the file ({@link AtomicFileWriter}).
 *
 * @param <T> the entry type
 */
public final class CheckpointFile<T> {

    /**
     * Turns an entry into its line and back.
     *
     * @param <T> the entry type
     */
    public interface EntryFormatter<T> {

        /** The entry's line, without the line end. */
        String toString(T entry);

        /**
         * The entry a line holds.
         *
         * @throws IllegalArgumentException saying why, if the line is not an entry
         */
        T fromString(String line);
    }

    private final Path file;
    private final int version;
    private final EntryFormatter<T> formatter;

    /**
     * A checkpoint at {@code file}; nothing is read or written until asked.
     *
     * @param version the version this file is written with and must be read with
     */
    public CheckpointFile(Path file, int version, EntryFormatter<T> formatter) {
        this.file = Objects.requireNonNull(file, "file");
        this.version = version;
        this.formatter = Objects.requireNonNull(formatter, "formatter");
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Replaces the file's entries, durably. */
    public synchronized void write(Collection<T> entries) throws IOException {
        AtomicFileWriter.write(file, encode(version, entries, formatter).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The entries, in file order. A missing or empty file has none: Kafka creates checkpoint files empty.
     *
     * @throws MalformedFileException naming the file and line, if it is not a checkpoint of this version
     */
    public synchronized List<T> read() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return decode(ByteBuffer.wrap(bytes), file.toString(), version, formatter);
    }

    /** The text of a checkpoint of {@code entries}. */
    static <T> String encode(int version, Collection<T> entries, EntryFormatter<T> formatter) {
        StringBuilder text = new StringBuilder()
                .append(version)
                .append('\n')
                .append(entries.size())
                .append('\n');
        for (T entry : entries) {
            text.append(formatter.toString(entry)).append('\n');
        }
        return text.toString();
    }

    /**
     * The entries of a checkpoint's bytes; none if there are no bytes.
     *
     * @param source what the bytes came from, for messages
     * @throws MalformedFileException naming the source and line
     */
    static <T> List<T> decode(ByteBuffer bytes, String source, int version, EntryFormatter<T> formatter)
            throws MalformedFileException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(bytes.duplicate()).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedFileException(source, "not UTF-8 text");
        }
        List<String> lines = text.lines().toList(); // split as BufferedReader.readLine, which Kafka reads with
        if (lines.isEmpty()) {
            return List.of();
        }
        int readVersion = number(lines.get(0), source, 1, "version");
        if (readVersion != version) {
            throw new MalformedFileException(
                    source, 1, "unrecognised version " + readVersion + ", expected " + version);
        }
        if (lines.size() < 2) {
            throw new MalformedFileException(source, 2, "the entry count is missing");
        }
        int count = number(lines.get(1), source, 2, "entry count");
        if (count < 0) {
            throw new MalformedFileException(source, 2, "negative entry count " + count);
        }
        if (lines.size() - 2 != count) {
            throw new MalformedFileException(
                    source,
                    Math.min(lines.size(), count + 2) + 1,
                    "expected " + count + " entries, found " + (lines.size() - 2));
        }
        List<T> entries = new ArrayList<>(count);
        for (int n = 2; n < lines.size(); n++) {
            try {
                entries.add(formatter.fromString(lines.get(n)));
            } catch (IllegalArgumentException e) {
                throw new MalformedFileException(source, n + 1, e.getMessage() + ": '" + lines.get(n) + "'");
            }
        }
        return List.copyOf(entries);
    }

    private static int number(String line, String source, int lineNumber, String what) throws MalformedFileException {
        try {
            return Integer.parseInt(line);
        } catch (NumberFormatException e) {
            throw new MalformedFileException(source, lineNumber, what + " '" + line + "' is not a number");
        }
    }
}
