package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;

/** What the kits check of an instance after {@code close()}, the same for every extension point. */
final class AfterClose {

    private AfterClose() {}

    /** Checks that a call on a closed instance throws {@link IllegalStateException} and returns nothing: a stream it answers with is closed. */
    static void refused(String what, Bounded.Call<?> call) {
        Object answer;
        try {
            answer = call.call();
        } catch (IllegalStateException expected) {
            return;
        } catch (Exception e) {
            throw new AssertionError(what + " after close() must throw IllegalStateException, not " + e, e);
        }
        if (answer instanceof InputStream stream) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // The call failed the rule already.
            }
        }
        fail(what + " after close() must throw IllegalStateException, but it "
                + (answer == null ? "returned" : "returned " + answer));
    }
}
