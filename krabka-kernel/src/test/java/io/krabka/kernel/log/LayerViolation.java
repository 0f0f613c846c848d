package io.krabka.kernel.log;

import io.krabka.kernel.broker.BrokerConfig;

/** A log class that uses the broker, a layer above it: the layering test's proof that it sees such a use. */
final class LayerViolation {
    private LayerViolation() {}

    static String describe(BrokerConfig config) {
        return config.toString();
    }
}
