package io.krabka.testservers.faults;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The I/O faults a process on the {@link FaultInjectingFileSystemProvider} meets, as files in a control directory
 * the test writes: {@code fsync-fails-under} and {@code write-fails-under}, each holding a path prefix. An fsync (or a
 * write) of a file or directory under the prefix then fails with EIO's message, as a failing disk answers; deleting
 * the file ends it. The process reads the files at each fsync and write, so a test changes the faults while the
 * process runs.
 */
public final class InjectedFaults {
    /** The system property naming the control directory in the process under test. */
    public static final String CONTROL_PROPERTY = "krabka.faults.control";

    private static final String FSYNC = "fsync-fails-under";
    private static final String WRITE = "write-fails-under";
    // strerror(EIO), as the JDK words the IOException of a failed fsync or write.
    private static final String EIO = "Input/output error";

    private final File controlDir;

    private InjectedFaults(File controlDir) {
        this.controlDir = controlDir;
    }

    /** The faults of this process: none when {@value #CONTROL_PROPERTY} is not set. */
    static InjectedFaults fromSystemProperty() {
        String control = System.getProperty(CONTROL_PROPERTY);
        return new InjectedFaults(control == null ? null : new File(control));
    }

    /**
     * The JVM options that run a process (a Krabka broker, through {@code KRABKA_JAVA_OPTS}) on the fault-injecting
     * file system, controlled from {@code controlDir}: {@link #classPath()} and {@link #systemProperties}.
     */
    public static String jvmOptions(Path controlDir) {
        return "-cp " + classPath() + " " + String.join(" ", systemProperties(controlDir));
    }

    /** The system properties that install the fault-injecting file system, controlled from {@code controlDir}. */
    public static List<String> systemProperties(Path controlDir) {
        return List.of(
                "-Djava.nio.file.spi.DefaultFileSystemProvider=" + FaultInjectingFileSystemProvider.class.getName(),
                "-D" + CONTROL_PROPERTY + "=" + controlDir);
    }

    /** Where the fault-injecting file system's classes are, for a process's class path. */
    public static String classPath() {
        try {
            return Path.of(InjectedFaults.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** From now on, every fsync under {@code prefix} fails. */
    public static void failFsyncUnder(Path controlDir, Path prefix) throws IOException {
        set(controlDir.resolve(FSYNC), prefix);
    }

    /** From now on, every write under {@code prefix} fails. */
    public static void failWritesUnder(Path controlDir, Path prefix) throws IOException {
        set(controlDir.resolve(WRITE), prefix);
    }

    /** No more faults. */
    public static void clear(Path controlDir) throws IOException {
        Files.deleteIfExists(controlDir.resolve(FSYNC));
        Files.deleteIfExists(controlDir.resolve(WRITE));
    }

    private static void set(Path control, Path prefix) throws IOException {
        Files.createDirectories(control.getParent());
        Path temp = control.resolveSibling(control.getFileName() + ".tmp");
        Files.writeString(temp, prefix.toAbsolutePath().normalize().toString());
        Files.move(temp, control, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Fails like a disk whose fsync fails, if {@code file} is under the fsync prefix. */
    void checkFsync(Path file) throws IOException {
        check(FSYNC, file, "fsync");
    }

    /** Fails like a disk whose write fails, if {@code file} is under the write prefix. */
    void checkWrite(Path file) throws IOException {
        check(WRITE, file, "write");
    }

    // java.io, not NIO: the control files are read beneath the file system this provider serves.
    private void check(String control, Path file, String what) throws IOException {
        if (controlDir == null) {
            return;
        }
        File prefixFile = new File(controlDir, control);
        if (!prefixFile.isFile()) {
            return;
        }
        String prefix;
        try (FileInputStream in = new FileInputStream(prefixFile)) {
            prefix = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the injected faults of " + prefixFile, e);
        }
        if (!prefix.isEmpty()
                && file.toAbsolutePath()
                        .normalize()
                        .startsWith(file.getFileSystem().getPath(prefix))) {
            throw new IOException(EIO + " (injected: " + what + " of " + file + ")");
        }
    }
}
