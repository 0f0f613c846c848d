package io.krabka.it;

import io.krabka.it.KafkaLog.Shutdown;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit extension that gives test and lifecycle methods a {@link KafkaLog} parameter: the logs Apache Kafka
 * 4.4.0 wrote for a {@link KafkaLogWorkload}, stopped cleanly, or killed mid-produce where the parameter is
 * annotated {@link Killed}. Each variant is written once per test JVM, when a test first asks for it, and shared
 * by every test class (failsafe runs the ITs in one JVM); a failure to write it fails every test that asks.
 *
 * <p>The logs are kept after the run, for inspection, under {@code target/it-work/kafka-log-<variant>} (the
 * system property {@value #WORK_PROPERTY}); the next run replaces them.
 *
 * <pre>{@code
 * @ExtendWith(KafkaLogs.class)
 * class SomeIT {
 *     @BeforeAll
 *     static void logs(KafkaLog clean, @KafkaLogs.Killed KafkaLog killed) { ... }
 * }
 * }</pre>
 */
final class KafkaLogs implements ParameterResolver {
    /** The system property naming the directory the ITs work in. */
    static final String WORK_PROPERTY = "krabka.it.work";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaLogs.class);

    /** On a {@link KafkaLog} parameter: the log of a broker killed mid-produce rather than stopped cleanly. */
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Killed {}

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaLog.class;
    }

    @Override
    public KafkaLog resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Shutdown shutdown = parameter.isAnnotated(Killed.class) ? Shutdown.KILLED : Shutdown.CLEAN;
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(shutdown, KafkaLogs::write, Written.class)
                .log();
    }

    private static Written write(Shutdown shutdown) {
        String work = System.getProperty(WORK_PROPERTY);
        if (work == null) {
            return new Written(
                    null,
                    new IllegalStateException("no system property " + WORK_PROPERTY
                            + ": the directory the ITs work in (krabka-it's failsafe sets it)"));
        }
        Path dir = Path.of(work).resolve("kafka-log-" + shutdown.name().toLowerCase(Locale.ROOT));
        try {
            return new Written(KafkaLogWriter.write(dir, shutdown), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Written(null, new IllegalStateException("interrupted while Kafka wrote the logs in " + dir, e));
        } catch (Exception e) {
            return new Written(null, e);
        }
    }

    /** A variant written, or why not: kept, so that the other classes asking for it fail at once. */
    private record Written(KafkaLog written, Exception failure) {
        KafkaLog log() {
            if (failure != null) {
                throw new IllegalStateException("Kafka did not write its logs: " + failure.getMessage(), failure);
            }
            return written;
        }
    }
}
