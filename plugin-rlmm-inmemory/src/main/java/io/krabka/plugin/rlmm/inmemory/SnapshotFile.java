package io.krabka.plugin.rlmm.inmemory;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.krabka.rlmm.cache.MetadataSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** A snapshot on disk: written atomically, read strictly. */
final class SnapshotFile {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private SnapshotFile() {}

    /**
     * Writes the snapshot to {@code file}, replacing it all at once.
     *
     * @return the SHA-256 of the bytes written, which names this snapshot in its {@link ChangeJournal}
     */
    static byte[] write(Path file, MetadataSnapshot snapshot) throws IOException {
        byte[] text = toBytes(snapshot);
        AtomicFile.write(file, out -> out.write(text));
        return sha256().digest(text);
    }

    /** The bytes {@link #write} writes: the JSON, indented, and a newline. */
    static byte[] toBytes(MetadataSnapshot snapshot) throws IOException {
        JsonNode json = SnapshotJsonWriter.toJson(snapshot);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MAPPER.writeValue(out, json);
        out.write('\n');
        return out.toByteArray();
    }

    /** The SHA-256 of a file's bytes. */
    static byte[] digest(Path file) throws IOException {
        return sha256().digest(Files.readAllBytes(file));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform has SHA-256.
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads the snapshot in {@code file}.
     *
     * @throws UnsupportedSnapshotVersionException if the file is in a newer format
     * @throws InvalidSnapshotException            if the file is not a valid snapshot
     * @throws IOException                         if the file cannot be read
     */
    static MetadataSnapshot read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            String where =
                    location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
            throw new InvalidSnapshotException(file, "malformed JSON" + where + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || root.isMissingNode()) {
            throw new InvalidSnapshotException(file, "the file is empty");
        }
        return SnapshotJsonReader.fromJson(root, file);
    }
}
