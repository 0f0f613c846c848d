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
     * The system property that, when {@code false}, lets a rule the kit could not check end as aborted (skipped)
     * instead of failing. It is {@code true} unless set: a copied build cannot pass with a rule unchecked.
     */
    static final String FAIL_ON_NOT_VERIFIED = "krabka.testkit.failOnNotVerified";

    private Verdicts() {}

    /**
     * Fails the rule as not checked, or ends it aborted when {@value #FAIL_ON_NOT_VERIFIED} is {@code false};
     * {@code why} says what to change so that it can be checked.
     */
    static void notVerified(String why) {
        if (Boolean.parseBoolean(System.getProperty(FAIL_ON_NOT_VERIFIED, "true"))) {
            Assertions.fail(NOT_VERIFIED + why + " (a rule the kit cannot check fails; " + FAIL_ON_NOT_VERIFIED
                    + "=false lets it end as skipped instead)");
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
