package io.krabka.kernel.log.config;

import io.krabka.spi.plugin.ConfigType;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A broker setting that gives a topic setting its broker-wide default, such as {@code log.retention.hours} for
 * {@code retention.ms}, and how its value becomes the topic setting's.
 *
 * @param name      the broker key
 * @param type      the broker key's own type ({@code log.retention.hours} is an INT of hours)
 * @param converter the topic setting's value from the broker key's parsed value
 */
public record ConfigSynonym(String name, ConfigType type, UnaryOperator<Object> converter) {

    /** Checks the parts. */
    public ConfigSynonym {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(converter, "converter");
    }

    /** A broker key whose value is the topic setting's as it is. */
    public static ConfigSynonym same(String name, ConfigType type) {
        return new ConfigSynonym(name, type, UnaryOperator.identity());
    }

    /** A broker key holding an INT count of {@code unit}, giving milliseconds. */
    public static ConfigSynonym millisFrom(String name, TimeUnit unit) {
        return new ConfigSynonym(name, ConfigType.INT, value -> unit.toMillis((Integer) value));
    }

    /** This synonym, with any negative result turned into -1 (unlimited), as Kafka reads its retention keys. */
    public ConfigSynonym negativeAsUnlimited() {
        return new ConfigSynonym(name, type, value -> {
            long millis = (Long) converter.apply(value);
            return millis < 0 ? -1L : millis;
        });
    }
}
