package io.krabka.archive.internal;

import java.util.HexFormat;

/**
 * Hex as the archive format writes it: lowercase on output, either case on input, always an even number of
 * digits (the original's {@code hex_bytes.rs}).
 */
public final class Hex {
    private static final HexFormat LOWER = HexFormat.of();

    private Hex() {}

    /** The bytes as lowercase hex. */
    public static String encode(byte[] bytes) {
        return LOWER.formatHex(bytes);
    }

    /**
     * The bytes a hex string of either case spells.
     *
     * @throws IllegalArgumentException if the string has an odd length or a character that is not a hex digit
     */
    public static byte[] decode(String hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("hex has an odd number of digits (" + hex.length() + ")");
        }
        for (int i = 0; i < hex.length(); i++) {
            if (!isHexDigit(hex.charAt(i))) {
                throw new IllegalArgumentException("not a hex digit at " + i + ": '" + hex.charAt(i) + "'");
            }
        }
        return LOWER.parseHex(hex);
    }

    private static boolean isHexDigit(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /**
     * The 32 bytes a 64-digit hex string spells, as a chain head or a SHA-256 digest is written.
     *
     * @throws IllegalArgumentException if the string is not exactly 64 hex digits
     */
    public static byte[] decode32(String hex) {
        if (hex.length() != 64) {
            throw new IllegalArgumentException("a 32-byte value is 64 hex digits, not " + hex.length());
        }
        return decode(hex);
    }
}
