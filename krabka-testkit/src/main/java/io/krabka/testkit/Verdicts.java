package io.krabka.testkit;

import org.junit.jupiter.api.Assertions;
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
    /**
     * The system property that, when {@code true}, makes a rule the kit could not check fail instead of abort, so
     * that a release build cannot pass with a rule unchecked.
     */
    static final String FAIL_ON_NOT_VERIFIED = "krabka.testkit.failOnNotVerified";

    private Verdicts() {
    }

    /**
     * Ends the rule as not checked, or fails it when {@value #FAIL_ON_NOT_VERIFIED} is {@code true}; {@code why}
     * says what to change so that it can be checked.
     */
    static void notVerified(String why) {
        if (Boolean.getBoolean(FAIL_ON_NOT_VERIFIED)) {
            Assertions.fail(NOT_VERIFIED + why + " (failing because " + FAIL_ON_NOT_VERIFIED + "=true)");
        }
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
