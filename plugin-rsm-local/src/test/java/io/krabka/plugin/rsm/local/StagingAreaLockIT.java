package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The staging locks against another real process, as when brokers share a directory. */
class StagingAreaLockIT {
    @TempDir
    Path dir;

    private static Process probe(String mode, Path file) throws IOException, URISyntaxException {
        // .../test-classes/io/krabka/plugin/rsm/local/LockProbe.class
        Path classes = Path.of(LockProbe.class.getResource("LockProbe.class").toURI())
                .getParent()
                .getParent()
                .getParent()
                .getParent()
                .getParent()
                .getParent();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        java.toString(), "-cp", classes.toString(), LockProbe.class.getName(), mode, file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static String firstLine(Process process) throws IOException {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }

    private Set<Path> instances() throws IOException {
        try (Stream<Path> children = Files.list(dir.resolve(StagingArea.DIR_NAME))) {
            return children.collect(Collectors.toSet());
        }
    }

    @Test
    void aDirectoryLockedByAnotherProcessSurvivesUntilThatProcessEnds() throws Exception {
        Path other = Files.createDirectories(dir.resolve(StagingArea.DIR_NAME).resolve("instance-other"));
        Files.createFile(other.resolve(StagingArea.LOCK_FILE));
        Process holder = probe("hold", other.resolve(StagingArea.LOCK_FILE));
        try {
            assertEquals("locked", firstLine(holder));
            try (LocalRemoteStorageManager rsm = new LocalRemoteStorageManager()) {
                rsm.configure(Map.of("dir", dir.toString()));
                assertTrue(Files.exists(other.resolve(StagingArea.LOCK_FILE)), "a live process's staging is kept");
            }
        } finally {
            holder.getOutputStream().close();
            assertEquals(0, holder.waitFor());
        }
        try (LocalRemoteStorageManager rsm = new LocalRemoteStorageManager()) {
            rsm.configure(Map.of("dir", dir.toString()));
            assertFalse(Files.exists(other), "once the process is gone its staging is swept");
        }
    }

    @Test
    void aSweepInThisJvmKeepsTheLockOfALiveInstance() throws Exception {
        try (LocalRemoteStorageManager first = new LocalRemoteStorageManager();
                LocalRemoteStorageManager second = new LocalRemoteStorageManager()) {
            first.configure(Map.of("dir", dir.toString()));
            Path firstLock = instances().iterator().next().resolve(StagingArea.LOCK_FILE);
            // Closing any channel on a locked file releases the process's lock on Linux, so the second
            // instance's sweep must not even open the first one's lock file.
            second.configure(Map.of("dir", dir.toString()));

            Process tryLock = probe("try", firstLock);
            assertEquals("held", firstLine(tryLock));
            assertEquals(0, tryLock.waitFor());
        }
    }
}
