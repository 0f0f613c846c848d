package io.krabka.kernel.security;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A listener's view of the broker's settings, as Kafka's {@code valuesWithPrefixOverride(listenerName.configPrefix())}
 * makes it: every key, with those under {@code listener.name.<listener in lower case>.} taking precedence over the
 * unprefixed ones they name.
 */
public final class ListenerProps {

    private ListenerProps() {}

    /** The prefix of a listener's own settings: {@code listener.name.<name in lower case>.}. */
    public static String prefix(String listenerName) {
        return "listener.name." + listenerName.toLowerCase(Locale.ROOT) + ".";
    }

    /** The settings as the listener sees them. */
    public static Map<String, String> of(Map<String, String> originals, String listenerName) {
        String prefix = prefix(listenerName);
        Map<String, String> props = new HashMap<>(originals);
        originals.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                props.put(key.substring(prefix.length()), value);
            }
        });
        return props;
    }
}
