package io.krabka.testservers;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Bucket names for test classes: the class's name, the JVM's pid and a sequence, valid for S3 (63 characters). */
final class BucketNames {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private BucketNames() {}

    /** A new name for a bucket of the test class {@code context} runs. */
    static String of(ExtensionContext context) {
        String name = context.getRequiredTestClass()
                .getSimpleName()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]", "");
        return (name.length() > 40 ? name.substring(0, 40) : name) + "-"
                + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    }
}
