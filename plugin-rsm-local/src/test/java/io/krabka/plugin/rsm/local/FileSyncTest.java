package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSyncTest {
    @TempDir
    Path dir;

    private List<FileChannel> written(int files) throws IOException {
        List<FileChannel> channels = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            FileChannel channel =
                    FileChannel.open(dir.resolve("file-" + i), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            channel.write(ByteBuffer.wrap(new byte[] {(byte) i, 1, 2}));
            channels.add(channel);
        }
        return channels;
    }

    @Test
    void forcesEveryFileAndReturnsWhenAllAreForced() throws IOException {
        List<FileChannel> channels = written(4);
        new FileSync(true).files(channels);
        for (FileChannel channel : channels) {
            channel.close();
        }
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(new byte[] {(byte) i, 1, 2}, Files.readAllBytes(dir.resolve("file-" + i)));
        }
    }

    @Test
    void aFailedForceOfAnyFileFailsTheCallWithEveryFailure() throws IOException {
        List<FileChannel> channels = written(4);
        channels.get(1).close();
        channels.get(3).close();
        ClosedChannelException failure =
                assertThrows(ClosedChannelException.class, () -> new FileSync(true).files(channels));
        assertEquals(1, failure.getSuppressed().length);
        assertEquals(ClosedChannelException.class, failure.getSuppressed()[0].getClass());
        channels.get(0).close();
        channels.get(2).close();
    }

    @Test
    void disabledForcesNothing() throws IOException {
        List<FileChannel> channels = written(2);
        channels.get(0).close();
        new FileSync(false).files(channels);
        channels.get(1).close();
    }
}
