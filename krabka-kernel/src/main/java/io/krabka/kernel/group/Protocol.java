package io.krabka.kernel.group;

import java.util.Objects;

/**
 * A protocol a member supports (an assignor, for consumers) with the member's metadata for it.
 *
 * @param name     the protocol name
 * @param metadata the member's metadata (a consumer's subscription)
 */
public record Protocol(String name, byte[] metadata) {

    /** Checks the parts are present. */
    public Protocol {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metadata, "metadata");
    }
}
