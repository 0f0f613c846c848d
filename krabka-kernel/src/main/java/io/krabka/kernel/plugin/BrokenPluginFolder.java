package io.krabka.kernel.plugin;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A plugin folder that failed to load. Discovery skips it, so that the plugins in the other folders serve on; it
 * stops only a command whose settings select it.
 *
 * @param folder the folder
 * @param reason why it failed, naming the folder: the message of the {@link PluginLoadException}
 */
public record BrokenPluginFolder(Path folder, String reason) {

    /** Validates the parts. */
    public BrokenPluginFolder {
        Objects.requireNonNull(folder, "folder");
        Objects.requireNonNull(reason, "reason");
    }
}
