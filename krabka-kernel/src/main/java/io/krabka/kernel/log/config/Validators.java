package io.krabka.kernel.log.config;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The checks Kafka's topic settings need beyond {@link ConfigValidator}'s: Kafka compares these names
 * case-sensitively, where {@link ConfigValidator#oneOf} does not.
 */
final class Validators {

    private static final Pattern REPLICA = Pattern.compile("([0-9]+:[0-9]+)?");

    private Validators() {}

    /** One of {@code allowed}, exactly. */
    static ConfigValidator in(String... allowed) {
        List<String> names = List.of(allowed);
        return (key, value) -> {
            if (!names.contains((String) value)) {
                throw new ConfigException(key, value, "must be one of " + String.join(", ", names));
            }
        };
    }

    /** A number from {@code min} to {@code max}, or exactly {@code other}. */
    static ConfigValidator betweenOr(long min, long max, long other) {
        return (key, value) -> {
            long number = ((Number) value).longValue();
            if (number != other && (number < min || number > max)) {
                throw new ConfigException(
                        key, value, "must be between " + min + " and " + max + " or equal to " + other);
            }
        };
    }

    /**
     * Kafka's replica lists for replication throttling: {@code *}, or {@code partitionId:brokerId} items.
     */
    static ConfigValidator throttledReplicas() {
        return (key, value) -> {
            List<String> items = ((List<?>) value)
                    .stream().map(item -> item.toString().trim()).toList();
            if (!items.stream().allMatch(item -> REPLICA.matcher(item).matches())
                    && !String.join("", items).equals("*")) {
                throw new ConfigException(
                        key,
                        value,
                        "must be * or a list of replicas as [partitionId]:[brokerId],[partitionId]:[brokerId],...");
            }
        };
    }

    /**
     * Kafka's {@code ValidList}: items each one of {@code allowed}, exactly, and none empty; an empty list is
     * allowed. Kafka drops repeated items before checking, and so does {@link TopicConfigDef#parse}.
     *
     * @param allowed the items allowed
     */
    record ValidList(List<String> allowed) implements ConfigValidator {

        ValidList {
            allowed = List.copyOf(allowed);
        }

        @Override
        public void ensureValid(String key, Object value) {
            for (Object item : (List<?>) value) {
                if (item.toString().isEmpty()) {
                    throw new ConfigException(key, value, "values must not be empty");
                }
                if (!allowed.contains(item.toString())) {
                    throw new ConfigException(key, value, "must be a list of " + String.join(", ", allowed));
                }
            }
        }
    }
}
