package io.krabka.kernel.broker;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A listener, Kafka's {@code NAME://HOST:PORT} (an IPv6 host in brackets).
 *
 * @param name the listener's name, upper case as Kafka normalises it ({@code PLAINTEXT}, {@code CONTROLLER})
 * @param host the host name or address; empty for every interface
 * @param port 0 to 65535; 0 takes any free port
 */
public record Endpoint(String name, String host, int port) {

    // Kafka's listener pattern (CoreUtils.listenerListToEndPoints): the brackets of an IPv6 host are optional.
    private static final Pattern LISTENER = Pattern.compile("^(.*)://\\[?([0-9a-zA-Z\\-%._:]*)\\]?:(-?[0-9]+)$");
    private static final Pattern HOST_PORT = Pattern.compile("^\\[?([0-9a-zA-Z\\-%._:]*)\\]?:(-?[0-9]+)$");

    /** Checks the parts. */
    public Endpoint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a listener needs a name");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not from 0 to 65535");
        }
    }

    /**
     * A listener as Kafka's {@code listeners} gives it: {@code NAME://HOST:PORT}.
     *
     * @param key the setting it comes from, for the error
     * @throws BrokerConfigException naming {@code key}, if it does not parse
     */
    public static Endpoint parse(String key, String text) {
        Matcher m = LISTENER.matcher(text.trim());
        if (!m.matches()) {
            throw new BrokerConfigException(
                    key, text, "a listener must be NAME://HOST:PORT, such as PLAINTEXT://127.0.0.1:9092");
        }
        return of(key, text, m.group(1), m.group(2), m.group(3));
    }

    /**
     * A listener named {@code name} at {@code HOST:PORT}, as a command line flag gives it.
     *
     * @throws BrokerConfigException naming {@code key}, if it does not parse
     */
    public static Endpoint parseHostPort(String key, String name, String text) {
        Matcher m = HOST_PORT.matcher(text.trim());
        if (!m.matches()) {
            throw new BrokerConfigException(
                    key, text, "expected HOST:PORT, such as 127.0.0.1:9092 (an IPv6 host in brackets)");
        }
        return of(key, text, name, m.group(1), m.group(2));
    }

    private static Endpoint of(String key, String text, String name, String host, String port) {
        if (name.isBlank()) {
            throw new BrokerConfigException(key, text, "the listener has no name");
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 0 || number > 65535) {
            throw new BrokerConfigException(key, text, "the port must be from 0 to 65535");
        }
        return new Endpoint(name.trim().toUpperCase(Locale.ROOT), host, number);
    }

    /** Whether the host is empty or a wildcard address: the listener takes every interface. */
    public boolean isWildcard() {
        return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    }

    /** The address to bind: every interface for an empty host. */
    public InetSocketAddress socketAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** This listener at another host and port (an advertised listener). */
    public Endpoint at(String otherHost, int otherPort) {
        return new Endpoint(name, otherHost, otherPort);
    }

    /** {@code HOST:PORT}, an IPv6 host in brackets. */
    public String hostPort() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** Kafka's form: {@code NAME://HOST:PORT}. */
    @Override
    public String toString() {
        return name + "://" + hostPort();
    }
}
