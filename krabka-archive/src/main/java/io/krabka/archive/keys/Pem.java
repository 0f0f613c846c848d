package io.krabka.archive.keys;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/** Key files as PEM or DER: the DER inside one PEM block of the expected type, or the file itself. */
final class Pem {

    private static final byte[] BEGIN = "-----BEGIN ".getBytes(StandardCharsets.US_ASCII);

    private Pem() {}

    /** Whether the file's contents, after leading whitespace, start a PEM block. */
    static boolean isPem(byte[] contents) {
        int start = 0;
        while (start < contents.length && Character.isWhitespace(contents[start])) {
            start++;
        }
        if (contents.length - start < BEGIN.length) {
            return false;
        }
        for (int i = 0; i < BEGIN.length; i++) {
            if (contents[start + i] != BEGIN[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The DER of a key file: the contents of its one PEM block, which must be of {@code type}, or the contents
     * themselves when the file is not PEM.
     *
     * @throws KeyFileException if the PEM is malformed, of another type, or holds more than one block
     */
    static byte[] derOf(Path file, byte[] contents, String type) throws KeyFileException {
        if (!isPem(contents)) {
            return contents;
        }
        try (PemReader reader = new PemReader(new StringReader(new String(contents, StandardCharsets.US_ASCII)))) {
            PemObject block = reader.readPemObject();
            if (block == null) {
                throw new KeyFileException(file, "holds no complete PEM block");
            }
            if (!block.getType().equals(type)) {
                throw new KeyFileException(
                        file,
                        "holds a PEM \"" + block.getType() + "\" block, not \"" + type + "\""
                                + (block.getType().contains("ENCRYPTED") ? " (an encrypted key is not read)" : ""));
            }
            if (reader.readPemObject() != null) {
                throw new KeyFileException(file, "holds more than one PEM block");
            }
            return block.getContent();
        } catch (IOException | IllegalStateException e) {
            throw new KeyFileException(file, "is not valid PEM: " + e.getMessage(), e);
        }
    }
}
