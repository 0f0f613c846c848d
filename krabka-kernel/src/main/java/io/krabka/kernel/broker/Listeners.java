package io.krabka.kernel.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The listeners of {@code listeners}, {@code advertised.listeners}, {@code controller.listener.names} and {@code
 * listener.security.protocol.map}, checked as Kafka checks them, and as far as Krabka serves them: one broker
 * listener, PLAINTEXT.
 *
 * @param broker     the broker's listener
 * @param advertised the listener clients are told of (an empty host: the local host's name, as Kafka)
 * @param controller the controller's listener, when {@code listeners} names one
 */
record Listeners(Endpoint broker, Endpoint advertised, Optional<Endpoint> controller) {

    private static final String LISTENERS = "listeners";
    private static final String ADVERTISED = "advertised.listeners";
    private static final String PROTOCOL_MAP = "listener.security.protocol.map";
    private static final String PLAINTEXT = "PLAINTEXT";

    Listeners {
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(advertised, "advertised");
        Objects.requireNonNull(controller, "controller");
    }

    /**
     * Reads and checks the listener settings.
     *
     * @param protocolMapSet whether {@code listener.security.protocol.map} was given: Kafka maps a controller
     *                       listener missing from it to PLAINTEXT only when it was not
     * @throws BrokerConfigException naming the key at fault
     */
    static Listeners of(
            String listeners,
            String advertisedListeners,
            List<String> controllerNames,
            String protocolMap,
            boolean protocolMapSet) {
        List<Endpoint> all = endpoints(LISTENERS, listeners);
        Map<String, String> protocols = protocols(protocolMap);
        List<String> controllers = controllerNames.stream()
                .map(name -> name.toUpperCase(Locale.ROOT))
                .toList();
        List<Endpoint> brokers = new ArrayList<>();
        Optional<Endpoint> controller = Optional.empty();
        for (Endpoint endpoint : all) {
            boolean isController = controllers.contains(endpoint.name());
            String protocol = protocols.get(endpoint.name());
            if (protocol == null && !(isController && !protocolMapSet)) {
                throw new BrokerConfigException(
                        PROTOCOL_MAP, protocolMap, "no security protocol for listener " + endpoint.name());
            }
            if (protocol != null && !protocol.equals(PLAINTEXT)) {
                throw new BrokerConfigException(
                        LISTENERS,
                        listeners,
                        "listener " + endpoint.name() + " is " + protocol + ": Krabka serves PLAINTEXT only");
            }
            if (!isController) {
                brokers.add(endpoint);
            } else if (controller.isEmpty()) {
                controller = Optional.of(endpoint);
            }
        }
        if (brokers.size() != 1) {
            throw new BrokerConfigException(
                    LISTENERS,
                    listeners,
                    brokers.isEmpty()
                            ? "no broker listener (one not named in controller.listener.names)"
                            : "Krabka serves one broker listener; these name " + brokers.size());
        }
        Endpoint broker = brokers.getFirst();
        return new Listeners(broker, advertised(broker, advertisedListeners), controller);
    }

    private static Endpoint advertised(Endpoint broker, String advertisedListeners) {
        if (advertisedListeners.isBlank()) {
            return routable(LISTENERS, broker);
        }
        return endpoints(ADVERTISED, advertisedListeners).stream()
                .filter(endpoint -> endpoint.name().equals(broker.name()))
                .findFirst()
                .map(endpoint -> routable(ADVERTISED, endpoint))
                .orElseThrow(() -> new BrokerConfigException(
                        ADVERTISED, advertisedListeners, "names no listener " + broker.name() + ", the broker's"));
    }

    // Kafka: a client cannot connect to 0.0.0.0, so it is never advertised.
    private static Endpoint routable(String key, Endpoint endpoint) {
        if (!endpoint.host().isEmpty() && endpoint.isWildcard()) {
            throw new BrokerConfigException(
                    key,
                    endpoint,
                    "advertised.listeners cannot use the nonroutable " + "meta-address " + endpoint.host()
                            + ". Use a routable IP address.");
        }
        return endpoint;
    }

    private static List<Endpoint> endpoints(String key, String text) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String item : text.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            Endpoint endpoint = Endpoint.parse(key, item);
            if (endpoints.stream().anyMatch(other -> other.name().equals(endpoint.name()))) {
                throw new BrokerConfigException(
                        key, text, "Each listener must have a different name, " + endpoint.name() + " is used twice");
            }
            endpoints.add(endpoint);
        }
        return endpoints;
    }

    private static Map<String, String> protocols(String text) {
        Map<String, String> protocols = new HashMap<>();
        for (String item : text.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            String[] parts = item.trim().split(":");
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new BrokerConfigException(
                        PROTOCOL_MAP,
                        text,
                        "expected NAME:PROTOCOL items, such as " + "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            }
            protocols.put(
                    parts[0].trim().toUpperCase(Locale.ROOT), parts[1].trim().toUpperCase(Locale.ROOT));
        }
        return protocols;
    }
}
