package io.krabka.testkit;

import org.junit.jupiter.api.Assumptions;

/**
 * The two ways a rule ends without a pass. Both abort the test, so a report never counts them as passed, and
 * both start with a fixed prefix that a reader or a build script can search for.
 */
final class Verdicts {

    /** Starts the message of a rule the kit could not check in this setting. */
    static final String NOT_VERIFIED = "NOT VERIFIED: ";
    /** Starts the message of a rule about a capability the implementation does not declare. */
    static final String NOT_APPLICABLE = "NOT APPLICABLE: ";

    private Verdicts() {
    }

    /** Ends the rule as not checked; {@code why} says what to change so that it can be. */
    static void notVerified(String why) {
        Assumptions.abort(NOT_VERIFIED + why);
    }

    /** Ends the rule unless the implementation declares {@code capability}. */
    static void requireCapability(boolean declared, Enum<?> capability) {
        if (!declared) {
            Assumptions.abort(NOT_APPLICABLE + "the implementation does not declare " + capability);
        }
    }

    /** Ends the rule if the implementation declares {@code capability}: the rule checks its absence. */
    static void requireNoCapability(boolean declared, Enum<?> capability) {
        if (declared) {
            Assumptions.abort(NOT_APPLICABLE + "the implementation declares " + capability
                    + "; this rule checks implementations that do not");
        }
    }
}
