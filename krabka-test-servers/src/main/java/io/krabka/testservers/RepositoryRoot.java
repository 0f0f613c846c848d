package io.krabka.testservers;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, where the server scripts are: {@code KRABKA_ROOT} or the nearest folder with {@code mvnw}. */
final class RepositoryRoot {
    private RepositoryRoot() {}

    static Path find() {
        String configured = System.getenv("KRABKA_ROOT");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("scripts"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "cannot find the repository root above " + Path.of("").toAbsolutePath() + "; set KRABKA_ROOT");
    }
}
