package io.krabka.kernel.log.config;

import io.krabka.kernel.record.CompressionType;
import java.util.Optional;

/**
 * The values of {@code compression.type}: a codec the broker recompresses to, {@code uncompressed}, or
 * {@code producer} (keep what the producer sent). Kafka's names and order.
 */
public enum BrokerCompressionType {
    /** Store records uncompressed. */
    UNCOMPRESSED("uncompressed", CompressionType.NONE),
    /** Zstandard. */
    ZSTD("zstd", CompressionType.ZSTD),
    /** LZ4. */
    LZ4("lz4", CompressionType.LZ4),
    /** Snappy. */
    SNAPPY("snappy", CompressionType.SNAPPY),
    /** gzip. */
    GZIP("gzip", CompressionType.GZIP),
    /** Keep the producer's codec. */
    PRODUCER("producer", null);

    private final String kafkaName;
    private final CompressionType codec;

    BrokerCompressionType(String kafkaName, CompressionType codec) {
        this.kafkaName = kafkaName;
        this.codec = codec;
    }

    /** Kafka's name. */
    public String kafkaName() {
        return kafkaName;
    }

    /** The codec the broker writes; empty for {@link #PRODUCER}. */
    public Optional<CompressionType> codec() {
        return Optional.ofNullable(codec);
    }

    /**
     * The type with Kafka's name, which is case-sensitive as in Kafka.
     *
     * @throws IllegalArgumentException if no type has it
     */
    public static BrokerCompressionType forName(String name) {
        for (BrokerCompressionType type : values()) {
            if (type.kafkaName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown compression type: " + name);
    }
}
