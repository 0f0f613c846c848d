package io.krabka.kernel.plugin;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which remote storage plugin the broker configuration selects, as Kafka's {@code *.class.name} and
 * {@code *.class.path} keys say, and its settings.
 *
 * @param nameOrClass a plugin's name ({@code local}, {@code inmemory}, {@code s3}, ...) or, with a class path, the
 *                    name of a class implementing the SPI interface
 * @param classPath   the jars and class directories that hold that class; empty to choose a discovered plugin
 * @param settings    the plugin's own settings, the configuration prefix ({@code rsm.config.}) removed
 * @param offered     what the broker offers every plugin that declares the key: {@code broker.id},
 *                    {@code cluster.id}, {@code log.dir}, {@code tiered.storage.dir} (a class-path plugin declares nothing and gets them all,
 *                    as Kafka's metadata managers do); a setting of the same name wins
 */
public record PluginSelection(
        String nameOrClass, List<Path> classPath, Map<String, ?> settings, Map<String, ?> offered) {

    public PluginSelection {
        Objects.requireNonNull(nameOrClass, "nameOrClass");
        classPath = List.copyOf(classPath);
        settings = Map.copyOf(settings);
        offered = Map.copyOf(offered);
    }
}
