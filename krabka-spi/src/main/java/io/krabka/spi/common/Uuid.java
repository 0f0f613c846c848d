package io.krabka.spi.common;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * A 128-bit identifier in Kafka's text form: the 16 bytes, big-endian, as URL-safe base64 without padding
 * (22 characters). Topic ids and remote segment ids are Uuids.
 *
 * @param mostSignificantBits  the high 64 bits
 * @param leastSignificantBits the low 64 bits
 */
public record Uuid(long mostSignificantBits, long leastSignificantBits) implements Comparable<Uuid> {

    /** The all-zero id, which Kafka reserves to mean "no id". */
    public static final Uuid ZERO_UUID = new Uuid(0L, 0L);

    /** The id Kafka reserves for the metadata topic. */
    public static final Uuid METADATA_TOPIC_ID = new Uuid(0L, 1L);

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    /**
     * A random id that is neither reserved nor begins with {@code -}, as Kafka's {@code Uuid.randomUuid()}
     * guarantees (a leading dash would read as an option on command lines).
     *
     * @return a new random id
     */
    public static Uuid randomUuid() {
        while (true) {
            UUID random = UUID.randomUUID();
            Uuid uuid = new Uuid(random.getMostSignificantBits(), random.getLeastSignificantBits());
            if (!uuid.equals(ZERO_UUID)
                    && !uuid.equals(METADATA_TOPIC_ID)
                    && !uuid.toString().startsWith("-")) {
                return uuid;
            }
        }
    }

    /**
     * Parses Kafka's 22-character text form.
     *
     * @param text the text form, as {@link #toString()} writes it
     * @return the id it encodes
     * @throws IllegalArgumentException if the text is not 22 URL-safe base64 characters encoding 16 bytes
     */
    public static Uuid fromString(String text) {
        if (text == null || text.length() != 22) {
            throw new IllegalArgumentException("not a Kafka Uuid (22 URL-safe base64 characters): " + text);
        }
        byte[] bytes;
        try {
            bytes = DECODER.decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a Kafka Uuid (22 URL-safe base64 characters): " + text, e);
        }
        return fromBytes(bytes);
    }

    /**
     * The id of 16 big-endian bytes.
     *
     * @param bytes the id's 16 bytes, most significant first
     * @return the id they encode
     * @throws IllegalArgumentException if there are not exactly 16 bytes
     */
    public static Uuid fromBytes(byte[] bytes) {
        if (bytes.length != 16) {
            throw new IllegalArgumentException("a Uuid has 16 bytes, not " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new Uuid(buffer.getLong(), buffer.getLong());
    }

    /** {@return the id's 16 bytes, big-endian, in a new array} */
    public byte[] toBytes() {
        return ByteBuffer.allocate(16)
                .putLong(mostSignificantBits)
                .putLong(leastSignificantBits)
                .array();
    }

    /** Kafka's text form. */
    @Override
    public String toString() {
        return ENCODER.encodeToString(toBytes());
    }

    @Override
    public int compareTo(Uuid other) {
        int high = Long.compare(mostSignificantBits, other.mostSignificantBits);
        return high != 0 ? high : Long.compare(leastSignificantBits, other.leastSignificantBits);
    }
}
