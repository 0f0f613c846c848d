package io.krabka.kernel.log.config;

/** Where a topic setting's value comes from, as DescribeConfigs reports it, with Kafka's ids. */
public enum ConfigSource {
    /** Set on the topic. */
    DYNAMIC_TOPIC_CONFIG(1),
    /** Taken from the broker's own configuration (a broker synonym such as {@code log.retention.hours}). */
    STATIC_BROKER_CONFIG(4),
    /** Kafka's default. */
    DEFAULT_CONFIG(5);

    private final int id;

    ConfigSource(int id) {
        this.id = id;
    }

    /** Kafka's id of the source in DescribeConfigs. */
    public int id() {
        return id;
    }
}
