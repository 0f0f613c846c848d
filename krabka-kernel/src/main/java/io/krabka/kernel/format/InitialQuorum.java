package io.krabka.kernel.format;

import java.util.Objects;

/**
 * How the KIP-853 dynamic controller quorum starts: Kafka's {@code --standalone}, {@code --initial-controllers}
 * or {@code --no-initial-controllers}.
 */
public sealed interface InitialQuorum {

    /**
     * This node as the only voter, reached at its controller listener; its voter directory id is the metadata log
     * directory's.
     *
     * @param host the controller listener's host (an IPv6 address without brackets)
     * @param port the controller listener's port, 0 to 65535
     */
    record Standalone(String host, int port) implements InitialQuorum {

        /** Validates the values. */
        public Standalone {
            Objects.requireNonNull(host, "host");
            if (host.isEmpty()) {
                throw new IllegalArgumentException("the controller listener has no host");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("the controller listener's port " + port + " is not 0 to 65535");
            }
        }

        /**
         * Parses {@code HOST:PORT}, an IPv6 host in brackets.
         *
         * @throws IllegalArgumentException naming what is wrong
         */
        public static Standalone parse(String listener) {
            int colon = listener.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("controller listener '" + listener + "' is not HOST:PORT");
            }
            String host = listener.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.contains(":")) {
                throw new IllegalArgumentException(
                        "controller listener '" + listener + "' has an IPv6 host without brackets: write [HOST]:PORT");
            }
            int port;
            try {
                port = Integer.parseInt(listener.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("controller listener '" + listener + "' has no port number", e);
            }
            return new Standalone(host, port);
        }
    }

    /**
     * The given voters, the same on every node formatted for the cluster.
     *
     * @param voters the voters
     */
    record InitialControllers(DynamicVoters voters) implements InitialQuorum {

        /** Validates the values. */
        public InitialControllers {
            Objects.requireNonNull(voters, "voters");
        }
    }

    /** No voters recorded: the node joins a quorum whose voters another node's format recorded. */
    record NoInitialControllers() implements InitialQuorum {}
}
