package io.krabka.kernel.record;

/**
 * The codecs of Kafka's record format, with the ids stored in bits 0–2 of a batch's attributes and the names of
 * Kafka's {@code compression.type}.
 */
public enum CompressionType {
    /** Records stored as they are. */
    NONE(0, "none"),
    /** DEFLATE in the gzip container (java.util.zip). */
    GZIP(1, "gzip"),
    /** snappy-java's stream format (Kafka's SnappyOutputStream). */
    SNAPPY(2, "snappy"),
    /** The LZ4 frame format as Kafka writes it. */
    LZ4(3, "lz4"),
    /** Zstandard frames (zstd-jni). */
    ZSTD(4, "zstd");

    private final int id;
    private final String kafkaName;

    CompressionType(int id, String kafkaName) {
        this.id = id;
        this.kafkaName = kafkaName;
    }

    /** The id stored in the attributes. */
    public int id() {
        return id;
    }

    /** Kafka's name: {@code none}, {@code gzip}, {@code snappy}, {@code lz4}, {@code zstd}. */
    public String kafkaName() {
        return kafkaName;
    }

    /**
     * The codec with an id.
     *
     * @throws UnsupportedCompressionTypeException if no codec has it
     */
    public static CompressionType forId(int id) {
        for (CompressionType type : values()) {
            if (type.id == id) {
                return type;
            }
        }
        throw new UnsupportedCompressionTypeException("unknown compression type id " + id);
    }

    /**
     * The codec with Kafka's name.
     *
     * @throws IllegalArgumentException if no codec has it
     */
    public static CompressionType forName(String name) {
        for (CompressionType type : values()) {
            if (type.kafkaName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown compression type: " + name);
    }
}
