package io.krabka.launcher;

import io.krabka.kernel.plugin.PluginLoadException;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The object store an archive command reads, as the store plugin's name and settings: the commands name a
 * backend by their flags, the plugins do the rest, so the launcher carries no cloud SDK and a third party's store
 * plugin works as well.
 *
 * @param plugin   the object-store plugin: {@code local}, {@code s3}, {@code gcs}
 * @param settings its settings
 * @param label    the archive as messages name it ({@code s3://bucket}, a directory)
 */
record ArchiveSource(String plugin, Map<String, String> settings, String label) {

    ArchiveSource {
        Objects.requireNonNull(plugin, "plugin");
        settings = Map.copyOf(settings);
        Objects.requireNonNull(label, "label");
    }

    /**
     * The store, configured by its plugin from {@code plugins}.
     *
     * @throws CommandException {@link ExitCode#ARCHIVE_UNREADABLE} when the plugin is missing or refuses the settings
     */
    ObjectStore open(PluginRegistry plugins) throws CommandException {
        try {
            return plugins.createObjectStore(plugin, settings);
        } catch (ConfigException | PluginLoadException e) {
            throw unreadable(e.getMessage(), e);
        }
    }

    /** The archive cannot be read, as {@code message} says: {@link ExitCode#ARCHIVE_UNREADABLE}. */
    CommandException unreadable(String message, Throwable cause) {
        return new CommandException(
                ExitCode.ARCHIVE_UNREADABLE, "cannot read the archive " + label + ": " + message, cause);
    }

    /** A local directory: the local plugin's {@code dir}, whose {@code kafka-tiered-storage/} holds the objects. */
    static ArchiveSource local(String dir) {
        return new ArchiveSource("local", Map.of("dir", dir), dir);
    }

    /**
     * An S3 bucket.
     *
     * @param region      the region; absent for the SDK's default (us-east-1 with an endpoint)
     * @param endpoint    an S3-compatible service's URL; absent for AWS
     * @param allowHttp   whether a plain-http endpoint is accepted
     * @param pathStyle   whether the bucket goes in the path rather than the host name
     * @param credentials a static access key; absent for the SDK's default chain
     */
    static ArchiveSource s3(
            String bucket,
            String region,
            String endpoint,
            boolean allowHttp,
            boolean pathStyle,
            Optional<S3Credentials> credentials) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("bucket", bucket);
        if (region != null) {
            settings.put("region", region);
        }
        if (endpoint != null) {
            settings.put("endpoint", endpoint);
        }
        settings.put("allow.http", String.valueOf(allowHttp));
        settings.put("path.style.access", String.valueOf(pathStyle));
        credentials.ifPresent(key -> {
            settings.put("access.key.id", key.accessKeyId());
            settings.put("secret.access.key", key.secretAccessKey());
        });
        return new ArchiveSource("s3", settings, "s3://" + bucket);
    }

    /**
     * A Google Cloud Storage bucket, credentials from Application Default Credentials; a plain-http endpoint (an
     * emulator on this machine) is sent none.
     */
    static ArchiveSource gcs(String bucket, String endpoint, String credentialsPath) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("bucket", bucket);
        if (endpoint != null) {
            settings.put("endpoint", endpoint);
            if (endpoint.startsWith("http://")) {
                settings.put("no.credentials", "true");
            }
        }
        if (credentialsPath != null) {
            settings.put("credentials.path", credentialsPath);
        }
        return new ArchiveSource("gcs", settings, "gs://" + bucket);
    }

    /**
     * A static S3 access key: the s3 plugin's {@code access.key.id} and {@code secret.access.key}.
     *
     * @param accessKeyId     the key's id
     * @param secretAccessKey its secret
     */
    record S3Credentials(String accessKeyId, String secretAccessKey) {

        S3Credentials {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        }
    }
}
