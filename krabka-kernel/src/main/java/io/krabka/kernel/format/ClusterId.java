package io.krabka.kernel.format;

import io.krabka.spi.common.Uuid;
import java.util.UUID;

/** A cluster's id as Kafka writes it: a Uuid in its 22-character base64 form. */
public final class ClusterId {

    private ClusterId() {}

    /**
     * The id {@code text} names: Kafka's 22-character base64 form as it is (not re-encoded: ids whose last
     * character carries stray bits, such as the documentation's {@code MkU3OEVBNTcwNTJENDM2Qk}, stay as written,
     * as Kafka keeps them), or a hyphenated UUID ({@code 8-4-4-4-12} hex digits) in Kafka's form.
     *
     * @throws IllegalArgumentException if it is neither
     */
    public static String parse(String text) {
        if (text.length() == 22) {
            try {
                Uuid.fromString(text);
                return text;
            } catch (IllegalArgumentException e) {
                throw notAnId(text, e);
            }
        }
        if (text.length() == 36) {
            try {
                UUID uuid = UUID.fromString(text);
                // UUID.fromString also takes shorter groups; only the canonical text is a hyphenated UUID.
                if (uuid.toString().equalsIgnoreCase(text)) {
                    return new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits()).toString();
                }
            } catch (IllegalArgumentException e) {
                throw notAnId(text, e);
            }
        }
        throw notAnId(text, null);
    }

    /** A new random id, as Kafka's {@code kafka-storage random-uuid} makes one. */
    public static String random() {
        return Uuid.randomUuid().toString();
    }

    private static IllegalArgumentException notAnId(String text, Exception cause) {
        return new IllegalArgumentException(
                "cluster id '" + text + "' is neither 22 characters of URL-safe base64 "
                        + "(Kafka's form) nor a hyphenated UUID",
                cause);
    }
}
