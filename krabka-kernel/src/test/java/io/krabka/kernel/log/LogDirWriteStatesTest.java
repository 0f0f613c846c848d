package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDirWriteStatesTest {
    @TempDir
    Path first;

    @TempDir
    Path second;

    @Test
    void aDirectoryRefusesFromItsFirstFailureUntilItsNextSuccessAndAlone() {
        LogDirWriteStates states = new LogDirWriteStates("partitions");
        states.failed(first, new IOException("No space left on device"));
        states.failed(first, new IOException("No space left on device"));
        assertTrue(states.refusing(first));
        assertFalse(states.refusing(second));
        states.succeeded(second);
        assertTrue(states.refusing(first), "another directory's success says nothing of this one");
        states.succeeded(first);
        assertFalse(states.refusing(first));
    }

    @Test
    void theUsableBytesAreTheFileSystemsAndMinusOneForNoDirectory() {
        assertTrue(LogDirWriteStates.usableBytes(first) > 0);
        assertTrue(LogDirWriteStates.usableBytes(first.resolve("absent")) == -1);
    }
}
