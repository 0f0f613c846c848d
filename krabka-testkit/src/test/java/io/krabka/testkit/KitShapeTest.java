package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;

/** Every rule of a kit reads as one: named by its level, final, and every knob has a rule validating it. */
class KitShapeTest {

    @Test
    void everyRuleIsNamedForItsLevelAndCannotBeOverridden() {
        List<Executable> checks = new ArrayList<>();
        for (Class<?> kit : List.of(
                RemoteStorageManagerConformance.class,
                RemoteLogMetadataManagerConformance.class,
                PluginProviderConformance.class)) {
            for (Method method : kit.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Test.class) || method.isAnnotationPresent(ParameterizedTest.class)) {
                    checks.add(() -> assertTrue(
                            method.getName().matches("(required|optional)_[a-z]\\w+"),
                            kit.getSimpleName() + "." + method.getName() + " is not named required_… or optional_…"));
                    checks.add(() -> assertTrue(
                            Modifier.isPublic(method.getModifiers()) && Modifier.isFinal(method.getModifiers()),
                            kit.getSimpleName() + "." + method.getName() + " must be public final"));
                }
            }
        }
        assertAll(checks);
    }

    @Test
    void everyKnobHasAValidationRule() {
        List<Executable> checks = new ArrayList<>();
        for (Class<?> kit : List.of(
                RemoteStorageManagerConformance.class,
                RemoteLogMetadataManagerConformance.class,
                PluginProviderConformance.class)) {
            Set<String> rules = KitRun.rules(kit);
            for (Method method : kit.getDeclaredMethods()) {
                boolean knob = Modifier.isProtected(method.getModifiers())
                        && !Modifier.isAbstract(method.getModifiers())
                        && method.getParameterCount() == 0
                        && !method.getName().equals("capabilities");
                if (knob) {
                    checks.add(() -> assertTrue(
                            rules.contains("required_validate_" + method.getName()),
                            kit.getSimpleName() + "." + method.getName() + "() has no required_validate_ rule"));
                }
            }
        }
        assertAll(checks);
    }

    @Test
    void eachKitHasExactlyOneFactoryHook() {
        for (Class<?> kit : List.of(
                RemoteStorageManagerConformance.class,
                RemoteLogMetadataManagerConformance.class,
                PluginProviderConformance.class)) {
            assertEquals(
                    1,
                    Arrays.stream(kit.getDeclaredMethods())
                            .filter(method -> Modifier.isAbstract(method.getModifiers()))
                            .count(),
                    kit.getSimpleName());
        }
    }
}
