package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs a kit subclass through the JUnit engine, as a build would, and keeps each rule's verdict. A parameterized
 * rule failed if any of its cases failed.
 */
final class KitRun {

    /** How a rule ended. */
    enum Verdict {
        PASSED,
        ABORTED,
        FAILED
    }

    private final Map<String, Verdict> verdicts = new TreeMap<>();
    private final Map<String, String> messages = new TreeMap<>();

    private KitRun() {}

    /** Runs every rule of the kit subclass. */
    static KitRun of(Class<?> kit) {
        return only(kit, rules(kit).toArray(String[]::new));
    }

    /** Runs every rule of the kit subclass but the named ones. */
    static KitRun excluding(Class<?> kit, String... excluded) {
        List<String> selected = new ArrayList<>(rules(kit));
        selected.removeAll(List.of(excluded));
        return only(kit, selected.toArray(String[]::new));
    }

    /** Runs the named rules of the kit subclass. */
    static KitRun only(Class<?> kit, String... rules) {
        List<MethodSelector> selectors = new ArrayList<>();
        for (Method method : kit.getMethods()) {
            if (Arrays.asList(rules).contains(method.getName())) {
                selectors.add(selectMethod(kit, method));
            }
        }
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectors.toArray(MethodSelector[]::new))
                .execute();
        results.containerEvents().failed().stream().findAny().ifPresent(event -> {
            throw new AssertionError("the kit itself failed: " + event.getPayload(TestExecutionResult.class));
        });
        KitRun run = new KitRun();
        results.testEvents().finished().stream().forEach(run::record);
        assertEquals(new TreeSet<>(List.of(rules)), run.verdicts.keySet(), "rules run");
        return run;
    }

    /** The rule methods of a kit class, parameterized ones included. */
    static Set<String> rules(Class<?> kit) {
        Set<String> rules = new TreeSet<>();
        for (Method method : kit.getMethods()) {
            if (method.isAnnotationPresent(Test.class) || method.isAnnotationPresent(ParameterizedTest.class)) {
                rules.add(method.getName());
            }
        }
        return rules;
    }

    private void record(Event event) {
        String rule = ((MethodSource) event.getTestDescriptor().getSource().orElseThrow()).getMethodName();
        TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
        Verdict verdict = switch (result.getStatus()) {
            case SUCCESSFUL -> Verdict.PASSED;
            case ABORTED -> Verdict.ABORTED;
            case FAILED -> Verdict.FAILED;
        };
        if (verdicts.getOrDefault(rule, Verdict.PASSED).compareTo(verdict) <= 0) {
            verdicts.put(rule, verdict);
            result.getThrowable().ifPresent(thrown -> messages.put(rule, String.valueOf(thrown.getMessage())));
        }
    }

    /** The rules with this verdict. */
    Set<String> with(Verdict verdict) {
        Set<String> rules = new TreeSet<>();
        verdicts.forEach((rule, v) -> {
            if (v == verdict) {
                rules.add(rule);
            }
        });
        return rules;
    }

    /** Why each aborted or failed rule ended so. */
    Map<String, String> messages() {
        return messages;
    }

    /** Checks which rules failed, whatever the others did. */
    void expectFailed(String... failed) {
        assertEquals(new TreeSet<>(List.of(failed)), with(Verdict.FAILED), () -> "failed rules; messages: " + messages);
    }

    /** Checks which rules failed and which aborted, with the start of each abort's message. */
    void expect(Set<String> failed, Map<String, String> abortedWithPrefix) {
        assertEquals(new TreeSet<>(failed), with(Verdict.FAILED), () -> "failed rules; messages: " + messages);
        assertEquals(
                new TreeSet<>(abortedWithPrefix.keySet()),
                with(Verdict.ABORTED),
                () -> "aborted rules; messages: " + messages);
        abortedWithPrefix.forEach((rule, prefix) -> {
            String message = messages.get(rule);
            if (message == null || !message.startsWith(prefix)) {
                throw new AssertionError(
                        rule + " must abort with a message starting '" + prefix + "', not: " + message);
            }
        });
    }

    @Override
    public String toString() {
        return verdicts + " " + messages;
    }
}
