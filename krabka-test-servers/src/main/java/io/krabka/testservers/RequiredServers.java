package io.krabka.testservers;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when a server it needs is not installed: with {@code KRABKA_REQUIRE_SERVERS=1} (as CI sets)
 * it fails, so a green run cannot hide a missing install step; otherwise it is skipped with the reason.
 */
public final class RequiredServers {
    /** The environment variable that turns a missing server into a failure. */
    public static final String REQUIRE_SERVERS = "KRABKA_REQUIRE_SERVERS";

    private RequiredServers() {}

    /** Whether missing servers fail tests rather than skip them. */
    public static boolean required() {
        return "1".equals(System.getenv(REQUIRE_SERVERS));
    }

    /** Fails or skips the current test because a server is missing; never returns normally. */
    public static RuntimeException missing(String what) {
        String message = what
                + (required()
                        ? " (" + REQUIRE_SERVERS + "=1: a missing server fails the test)"
                        : "; skipped (set " + REQUIRE_SERVERS + "=1 to fail instead)");
        if (required()) {
            Assertions.fail(message);
        }
        Assumptions.abort(message);
        throw new AssertionError(message);
    }
}
