package io.krabka.testservers;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** What the opt-in {@code cloud} profile's tests share: their settings from the environment, a prefix per run. */
public final class CloudRun {

    private CloudRun() {}

    /** The environment variable {@code name}, unless unset or blank. */
    public static Optional<String> setting(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(value -> !value.isBlank());
    }

    /** A key prefix of this run's own, {@code krabka-tests/<name>-<UTC time>-<pid>}, so runs never meet. */
    public static String prefix(String name) {
        return "krabka-tests/" + name.toLowerCase(Locale.ROOT) + "-"
                + LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + ProcessHandle.current().pid();
    }
}
