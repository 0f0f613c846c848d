package io.krabka.jlink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command run in an image for the ITs, in an environment with no JAVA_HOME and, ahead of the system's
 * folders on the PATH, a {@code java} that fails: anything that reaches for a JDK outside the image fails.
 *
 * @param exitCode the command's exit code
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
record ImageRun(int exitCode, String out, String err) {
    static final int TRAP_EXIT = 97;

    /** Runs the image builder as jlink/build-image does, on the distribution and profiles of this build. */
    static ImageRun buildImage(Path work, Path dist, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-p",
                System.getProperty("krabka.builder"),
                "-m",
                "io.krabka.jlink/io.krabka.jlink.BuildImage",
                "--dist",
                dist.toString(),
                "--profiles",
                System.getProperty("krabka.profiles")));
        command.addAll(List.of(args));
        return run(work, Map.of(), command.toArray(String[]::new));
    }

    static ImageRun run(Path work, Map<String, String> extraEnv, String... command)
            throws IOException, InterruptedException {
        Path trap = Files.createDirectories(work.resolve("trap"));
        Path java = trap.resolve("java");
        if (!Files.exists(java)) {
            Files.writeString(java, "#!/bin/sh\necho 'a java outside the image ran' >&2\nexit " + TRAP_EXIT + "\n");
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command)))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", trap + ":/usr/bin:/bin");
        builder.environment().putAll(extraEnv);
        Process process = builder.start();
        // Not a measurement: only keeps a hung process from hanging the build.
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish");
        }
        return new ImageRun(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
