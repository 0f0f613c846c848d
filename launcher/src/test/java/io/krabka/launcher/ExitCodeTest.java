package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.broker.BrokerConfigException;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.log.MetaPropertiesException;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginLoadException;
import io.krabka.kernel.restore.ChecksumMismatchException;
import io.krabka.kernel.restore.LogDirNotEmptyException;
import io.krabka.kernel.restore.MaterializeException;
import io.krabka.kernel.restore.TornCopyException;
import io.krabka.kernel.restore.UnreadableArchiveException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.spi.plugin.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every failure a command stops on has one exit code, whichever command meets it. */
class ExitCodeTest {

    @Test
    void settingsOrPluginsACommandCannotUseAreAUsageError(@TempDir Path root) {
        assertEquals(ExitCode.USAGE, ExitCode.of(new ConfigException("unknown setting dirr")));
        PluginLoadException noPlugins =
                assertThrows(PluginLoadException.class, () -> PluginDiscovery.discover(root.resolve("plugins")));
        assertEquals(ExitCode.USAGE, ExitCode.of(noPlugins));
        assertEquals(ExitCode.USAGE, ExitCode.of(new BrokerConfigException("node.id", "x", "not a number")));
        assertEquals(ExitCode.USAGE, ExitCode.of(new InvalidRestoreArgumentException("bad")));
        assertEquals(
                ExitCode.USAGE,
                ExitCode.of(new FormatException(FormatException.Kind.INVALID_VOTERS, "directory ids differ")));
    }

    @Test
    void refusedStorageAndFormatFailures() {
        assertEquals(ExitCode.STORAGE_REFUSED, ExitCode.of(new MetaPropertiesException("another cluster")));
        assertEquals(3, ExitCode.of(new FormatException(FormatException.Kind.ALREADY_FORMATTED, "formatted")));
        assertEquals(3, ExitCode.of(new FormatException(FormatException.Kind.CONFLICT, "another node")));
        assertEquals(4, ExitCode.of(new FormatException(FormatException.Kind.IO_ERROR, "write failed")));
        assertEquals(5, ExitCode.of(new FormatException(FormatException.Kind.INVALID_FEATURES, "kraft.version")));
    }

    @Test
    void everyRestoreFailureHasItsExitCode() {
        assertEquals(3, ExitCode.of(new LogDirNotEmptyException(Path.of("data"), "meta.properties")));
        assertEquals(4, ExitCode.of(new UnreadableArchiveException("empty")));
        assertEquals(5, ExitCode.of(new ChecksumMismatchException("k", 0, 1, 2)));
        assertEquals(5, ExitCode.of(new TornCopyException("k", "no .index")));
        assertEquals(6, ExitCode.of(new MaterializeException("disk full", new IOException("ENOSPC"))));
    }

    @Test
    void anythingElseIsAFailure() {
        assertEquals(ExitCode.FAILURE, ExitCode.of(new IOException("Address already in use")));
        assertEquals(ExitCode.FAILURE, ExitCode.of(new IllegalStateException("locked by another broker")));
    }
}
