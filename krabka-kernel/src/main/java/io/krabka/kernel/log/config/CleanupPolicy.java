package io.krabka.kernel.log.config;

/** The values of {@code cleanup.policy}. */
public enum CleanupPolicy {
    /** Keep the latest record of each key: the log cleaner compacts the log ({@code log.cleaner.*}). */
    COMPACT("compact"),
    /** Delete old segments by retention time and size. */
    DELETE("delete");

    private final String kafkaName;

    CleanupPolicy(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** Kafka's name: {@code compact}, {@code delete}. */
    public String kafkaName() {
        return kafkaName;
    }

    /**
     * The policy with Kafka's name, which is case-sensitive as in Kafka.
     *
     * @throws IllegalArgumentException if no policy has it
     */
    public static CleanupPolicy forName(String name) {
        for (CleanupPolicy policy : values()) {
            if (policy.kafkaName.equals(name)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown cleanup policy: " + name);
    }
}
