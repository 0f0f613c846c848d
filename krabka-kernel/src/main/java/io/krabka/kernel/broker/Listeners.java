package io.krabka.kernel.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The listeners of {@code listeners}, {@code advertised.listeners}, {@code controller.listener.names}, {@code
 * listener.security.protocol.map} and {@code inter.broker.listener.name} (or {@code security.inter.broker.protocol}),
 * checked as Kafka checks them: the broker's listeners, each with its security protocol and the endpoint clients are
 * told of, and the controller's.
 *
 * @param brokers     the broker's listeners, in the order of {@code listeners}
 * @param controller  the controller's listener, when {@code listeners} names one
 * @param interBroker the name of the inter-broker listener
 */
record Listeners(List<BrokerListener> brokers, Optional<Endpoint> controller, String interBroker) {

    private static final String LISTENERS = "listeners";
    private static final String ADVERTISED = "advertised.listeners";
    private static final String PROTOCOL_MAP = "listener.security.protocol.map";
    private static final String INTER_BROKER_LISTENER = "inter.broker.listener.name";
    private static final String INTER_BROKER_PROTOCOL = "security.inter.broker.protocol";

    /**
     * One broker listener.
     *
     * @param endpoint   where it listens
     * @param protocol   its security protocol
     * @param advertised the endpoint clients are told of (an empty host: the local host's name, as Kafka)
     */
    record BrokerListener(Endpoint endpoint, SecurityProtocol protocol, Endpoint advertised) {
        BrokerListener {
            Objects.requireNonNull(endpoint, "endpoint");
            Objects.requireNonNull(protocol, "protocol");
            Objects.requireNonNull(advertised, "advertised");
        }

        String name() {
            return endpoint.name();
        }
    }

    Listeners {
        brokers = List.copyOf(brokers);
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(interBroker, "interBroker");
    }

    /**
     * Reads and checks the listener settings.
     *
     * @param protocolMapSet         whether {@code listener.security.protocol.map} was given: Kafka maps a controller
     *                               listener missing from it to PLAINTEXT only when it was not
     * @param interBrokerListener    {@code inter.broker.listener.name}, empty when not set
     * @param interBrokerProtocol    {@code security.inter.broker.protocol}
     * @param interBrokerProtocolSet whether it was given: Kafka refuses both at once
     * @throws BrokerConfigException naming the key at fault
     */
    static Listeners of(
            String listeners,
            String advertisedListeners,
            List<String> controllerNames,
            String protocolMap,
            boolean protocolMapSet,
            String interBrokerListener,
            String interBrokerProtocol,
            boolean interBrokerProtocolSet) {
        List<Endpoint> all = endpoints(LISTENERS, listeners);
        Map<String, SecurityProtocol> protocols = protocols(protocolMap);
        List<String> controllers = controllerNames.stream()
                .map(name -> name.toUpperCase(Locale.ROOT))
                .toList();
        Map<String, Endpoint> advertised = new HashMap<>();
        if (!advertisedListeners.isBlank()) {
            for (Endpoint endpoint : endpoints(ADVERTISED, advertisedListeners)) {
                if (all.stream().noneMatch(listener -> listener.name().equals(endpoint.name()))) {
                    throw new BrokerConfigException(
                            ADVERTISED,
                            advertisedListeners,
                            "advertised.listeners listener names must be equal to or a subset of the ones defined "
                                    + "in listeners; " + endpoint.name() + " is not");
                }
                advertised.put(endpoint.name(), endpoint);
            }
        }
        List<BrokerListener> brokers = new ArrayList<>();
        Optional<Endpoint> controller = Optional.empty();
        for (Endpoint endpoint : all) {
            boolean isController = controllers.contains(endpoint.name());
            SecurityProtocol protocol = protocols.get(endpoint.name());
            if (protocol == null && !(isController && !protocolMapSet)) {
                throw new BrokerConfigException(
                        PROTOCOL_MAP, protocolMap, "no security protocol for listener " + endpoint.name());
            }
            if (isController) {
                if (controller.isEmpty()) {
                    controller = Optional.of(endpoint);
                }
                continue;
            }
            // Kafka advertises only what advertised.listeners names, when it is set; Krabka advertises a listener
            // it leaves out as it binds it, so that Metadata on that listener still names a reachable broker.
            Endpoint told = routable(
                    advertised.containsKey(endpoint.name()) ? ADVERTISED : LISTENERS,
                    advertised.getOrDefault(endpoint.name(), endpoint));
            brokers.add(new BrokerListener(endpoint, protocol, told));
        }
        if (brokers.isEmpty()) {
            throw new BrokerConfigException(
                    LISTENERS, listeners, "no broker listener (one not named in controller.listener.names)");
        }
        return new Listeners(
                brokers,
                controller,
                interBroker(brokers, interBrokerListener, interBrokerProtocol, interBrokerProtocolSet));
    }

    // Kafka: inter.broker.listener.name, else the listener named as security.inter.broker.protocol; one of the
    // broker's advertised listeners.
    private static String interBroker(
            List<BrokerListener> brokers, String listenerName, String protocol, boolean protocolSet) {
        if (!listenerName.isBlank() && protocolSet) {
            throw new BrokerConfigException(
                    INTER_BROKER_LISTENER,
                    listenerName,
                    "Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.");
        }
        String name = listenerName.isBlank()
                ? protocol.toUpperCase(Locale.ROOT)
                : listenerName.trim().toUpperCase(Locale.ROOT);
        if (brokers.stream().noneMatch(listener -> listener.name().equals(name))) {
            throw new BrokerConfigException(
                    listenerName.isBlank() ? INTER_BROKER_PROTOCOL : INTER_BROKER_LISTENER,
                    listenerName.isBlank() ? protocol : listenerName,
                    "inter.broker.listener.name must be a listener name defined in advertised.listeners; "
                            + name + " is not among "
                            + brokers.stream().map(BrokerListener::name).toList()
                            + " (set inter.broker.listener.name to one of them)");
        }
        return name;
    }

    /** The broker listener of this name, if there is one. */
    Optional<BrokerListener> broker(String name) {
        return brokers.stream().filter(listener -> listener.name().equals(name)).findFirst();
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

    private static Map<String, SecurityProtocol> protocols(String text) {
        Map<String, SecurityProtocol> protocols = new HashMap<>();
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
            String protocol = parts[1].trim().toUpperCase(Locale.ROOT);
            if (SecurityProtocol.names().stream().noneMatch(protocol::equals)) {
                throw new BrokerConfigException(
                        PROTOCOL_MAP,
                        text,
                        "unknown security protocol " + protocol + ": expected one of " + SecurityProtocol.names());
            }
            protocols.put(parts[0].trim().toUpperCase(Locale.ROOT), SecurityProtocol.forName(protocol));
        }
        return protocols;
    }
}
