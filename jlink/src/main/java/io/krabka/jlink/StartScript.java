package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes an image's {@code bin/krabka}, which runs Krabka on the image's own Java. */
final class StartScript {
    /** The boot module and main class, as ./krabka runs them. */
    static final String MAIN = "io.krabka.boot/io.krabka.boot.Boot";

    // A plugin layer reads only system modules resolved at start, hence ALL-SYSTEM. The image's home is found
    // from the script's own path (following links), so an image can be moved or linked to from a bin folder.
    private static final String TEXT = """
            #!/bin/sh
            # Runs Krabka from this runtime image on the image's own Java: no JDK or JAVA_HOME needed.
            # KRABKA_JAVA_OPTS adds options for the JVM (heap size, GC, -D...).
            self=$0
            while [ -h "$self" ]; do
              link=$(readlink "$self")
              case $link in
                /*) self=$link ;;
                *) self=$(dirname "$self")/$link ;;
              esac
            done
            home=$(cd "$(dirname "$self")/.." && pwd -P)
            exec "$home/jdk/bin/java" ${KRABKA_JAVA_OPTS:-} --add-modules=ALL-SYSTEM -Dkrabka.home="$home" \\
              -p "$home/boot" -m %s "$@"
            """.formatted(MAIN);

    private StartScript() {
    }

    static void write(Path script) throws IOException {
        Files.createDirectories(script.getParent());
        Files.writeString(script, TEXT);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
