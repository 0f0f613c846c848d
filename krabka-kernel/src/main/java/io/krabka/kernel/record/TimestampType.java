package io.krabka.kernel.record;

/** What a record's timestamp means, with Kafka's ids and the names of {@code message.timestamp.type}. */
public enum TimestampType {
    /** No timestamp: magic 0 messages. */
    NO_TIMESTAMP_TYPE(-1, "NoTimestampType"),
    /** Set by the producer. */
    CREATE_TIME(0, "CreateTime"),
    /** Set by the broker when it appends the batch; bit 3 of a batch's attributes. */
    LOG_APPEND_TIME(1, "LogAppendTime");

    private final int id;
    private final String kafkaName;

    TimestampType(int id, String kafkaName) {
        this.id = id;
        this.kafkaName = kafkaName;
    }

    /** Kafka's id. */
    public int id() {
        return id;
    }

    /** Kafka's name: {@code CreateTime}, {@code LogAppendTime}. */
    public String kafkaName() {
        return kafkaName;
    }

    /**
     * The type with Kafka's name.
     *
     * @throws IllegalArgumentException if no type has it
     */
    public static TimestampType forName(String name) {
        for (TimestampType type : values()) {
            if (type.kafkaName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown timestamp type: " + name);
    }
}
