package io.krabka.kernel.broker;

import io.krabka.spi.plugin.ConfigException;
import java.io.Serial;
import java.util.Objects;

/**
 * A broker setting that stops start-up: missing, of the wrong type, out of range, or at odds with another. The
 * message is one line naming the key and why.
 */
public final class BrokerConfigException extends ConfigException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String key;

    /** A bad value of {@code key}. */
    public BrokerConfigException(String key, Object value, String why) {
        super(Objects.requireNonNull(key, "key"), oneLine(String.valueOf(value)), oneLine(why));
        this.key = key;
    }

    /** A problem with {@code key} that {@code message} describes, naming the key. */
    public static BrokerConfigException of(String key, String message) {
        return new BrokerConfigException(key, oneLine(message));
    }

    private BrokerConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** The key at fault. */
    public String key() {
        return key;
    }

    private static String oneLine(String text) {
        return text.replace("\r", "\\r").replace("\n", "\\n");
    }
}
