package io.krabka.plugin.rsm.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Run as another process by {@link StagingAreaLockIT}: {@code hold <file>} locks the file, prints {@code locked}
 * and keeps the lock until its standard input closes; {@code try <file>} prints {@code free} or {@code held}.
 */
public final class LockProbe {
    private LockProbe() {}

    public static void main(String[] args) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of(args[1]), StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (args[0].equals("hold")) {
                System.out.println(lock != null ? "locked" : "held");
                System.out.flush();
                System.in.readAllBytes();
            } else {
                System.out.println(lock != null ? "free" : "held");
            }
        }
    }
}
