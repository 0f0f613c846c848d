package io.krabka.plugin.rsm.gcs;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.PluginConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The settings of the {@code gcs} object store: one bucket and how the client reaches it. The remote tier takes the
 * same keys and {@code prefix} ({@link GcsStorageConfig}).
 *
 * @param bucket             the bucket
 * @param projectId          the project; empty for the client's default (from the credentials or the environment)
 * @param endpoint           a host that replaces Google's (an emulator or a test fixture); empty for Google's
 * @param credentials        where the client's credentials come from
 * @param chunkSize          the bytes of each request of a resumable upload, a multiple of 256 KiB
 * @param resumableThreshold files of at least this many bytes go in a resumable upload, smaller ones in one request
 * @param requestTimeout     the connect and read timeout of one HTTP request
 * @param totalTimeout       the limit on one operation, retries included
 * @param retries            how many times a failed request is retried
 */
record GcsStoreConfig(
        String bucket,
        Optional<String> projectId,
        Optional<URI> endpoint,
        Credentials credentials,
        int chunkSize,
        int resumableThreshold,
        Duration requestTimeout,
        Duration totalTimeout,
        int retries) {

    static final String BUCKET = "bucket";
    static final String PROJECT_ID = "project.id";
    static final String ENDPOINT = "endpoint";
    static final String CREDENTIALS_PATH = "credentials.path";
    static final String NO_CREDENTIALS = "no.credentials";
    static final String CHUNK_SIZE = "resumable.upload.chunk.size";
    static final String RESUMABLE_THRESHOLD_BYTES = "resumable.threshold.bytes";
    static final String REQUEST_TIMEOUT_MS = "request.timeout.ms";
    static final String TOTAL_TIMEOUT_MS = "total.timeout.ms";
    static final String RETRIES = "retries";

    /** GCS's granularity of resumable-upload requests: every one but the last is a multiple of it. */
    static final int CHUNK_GRANULARITY = 256 * 1024;

    private static final int MIB = 1 << 20;

    /** The bucket's key, first of the remote tier's keys too. */
    static final ConfigKey BUCKET_KEY = ConfigKey.required(
                    BUCKET, ConfigType.STRING, "The bucket that holds the objects; it must exist.")
            .withValidator(ConfigValidator.nonBlank());

    /** The keys after the bucket's, shared by the store and the remote tier. */
    static final List<ConfigKey> CLIENT_KEYS = List.of(
            ConfigKey.optional(
                    PROJECT_ID,
                    ConfigType.STRING,
                    "",
                    "The Google Cloud project; empty for the client's default (the credentials' project, or "
                            + "GOOGLE_CLOUD_PROJECT)."),
            ConfigKey.optional(
                    ENDPOINT,
                    ConfigType.STRING,
                    "",
                    "An http(s) URL that replaces Google's storage host, for an emulator or a test fixture, e.g. "
                            + "http://127.0.0.1:4443; empty for Google Cloud Storage."),
            ConfigKey.optional(
                    CREDENTIALS_PATH,
                    ConfigType.STRING,
                    "",
                    "A service account key file (JSON); empty for Application Default Credentials "
                            + "(GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, the metadata server)."),
            ConfigKey.optional(
                    NO_CREDENTIALS,
                    ConfigType.BOOLEAN,
                    false,
                    "Whether requests go unauthenticated, for an emulator or a test fixture; never for Google Cloud "
                            + "Storage. Excludes credentials.path."),
            ConfigKey.optional(
                            CHUNK_SIZE,
                            ConfigType.INT,
                            8 * MIB,
                            "The bytes sent in each request of a resumable upload, a multiple of 256 KiB; the memory one "
                                    + "large upload holds, and what a failed request resends.")
                    .withValidator(ConfigValidator.between(CHUNK_GRANULARITY, 1024L * MIB)),
            ConfigKey.optional(
                            RESUMABLE_THRESHOLD_BYTES,
                            ConfigType.INT,
                            8 * MIB,
                            "Files of at least this many bytes are streamed from disk in a resumable upload, chunk by chunk; "
                                    + "smaller ones are sent in one request, read into memory first (so this also bounds the "
                                    + "memory of one small upload).")
                    .withValidator(ConfigValidator.between(1, Integer.MAX_VALUE - 8)),
            ConfigKey.optional(
                            REQUEST_TIMEOUT_MS,
                            ConfigType.INT,
                            60_000,
                            "The connect and read timeout of one HTTP request, in milliseconds; a slower request is retried.")
                    .withValidator(ConfigValidator.atLeast(1)),
            ConfigKey.optional(
                            TOTAL_TIMEOUT_MS,
                            ConfigType.LONG,
                            300_000L,
                            "How long a request may keep being retried, in milliseconds, from its first attempt: one "
                                    + "upload, one chunk of a resumable upload, one read's opening, one delete.")
                    .withValidator(ConfigValidator.atLeast(1)),
            ConfigKey.optional(
                            RETRIES,
                            ConfigType.INT,
                            5,
                            "How many times a failed request (429, 5xx, a broken connection, a timeout) is retried with "
                                    + "backoff; 0 for none. Every request is retried, uploads too: a replacing write repeats "
                                    + "the same bytes, and a create whose earlier attempt landed is recognised as its own.")
                    .withValidator(ConfigValidator.between(0, 100)));

    /** The store's keys, as its provider declares them. */
    static final List<ConfigKey> KEYS = concat(List.of(BUCKET_KEY), CLIENT_KEYS);

    /** Where the client's credentials come from. */
    sealed interface Credentials {
        /** Application Default Credentials. */
        record ApplicationDefault() implements Credentials {}

        /** A service account key file. */
        record ServiceAccountFile(Path path) implements Credentials {
            public ServiceAccountFile {
                Objects.requireNonNull(path, "path");
            }
        }

        /** No credentials: unauthenticated requests, for an emulator or a fixture. */
        record None() implements Credentials {}
    }

    /** Validates the parts. */
    GcsStoreConfig {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(totalTimeout, "totalTimeout");
        if (chunkSize % CHUNK_GRANULARITY != 0) {
            throw new IllegalArgumentException("chunkSize must be a multiple of 256 KiB: " + chunkSize);
        }
    }

    /**
     * Checks and parses the store's settings, raw or already parsed.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid
     */
    static GcsStoreConfig parse(Map<String, ?> configs) {
        return of(PluginConfig.parse(KEYS, configs));
    }

    /** The store's part of settings already checked against a list of keys that holds {@link #KEYS}. */
    static GcsStoreConfig of(PluginConfig config) {
        int chunkSize = config.getInt(CHUNK_SIZE);
        if (chunkSize % CHUNK_GRANULARITY != 0) {
            throw new ConfigException(
                    CHUNK_SIZE, chunkSize, "not a multiple of 256 KiB (262144 bytes), as GCS requires");
        }
        String projectId = config.getString(PROJECT_ID);
        return new GcsStoreConfig(
                config.getString(BUCKET),
                projectId.isEmpty() ? Optional.empty() : Optional.of(projectId),
                endpoint(config.getString(ENDPOINT)),
                credentials(config.getString(CREDENTIALS_PATH), config.getBoolean(NO_CREDENTIALS)),
                chunkSize,
                config.getInt(RESUMABLE_THRESHOLD_BYTES),
                Duration.ofMillis(config.getInt(REQUEST_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(TOTAL_TIMEOUT_MS)),
                config.getInt(RETRIES));
    }

    static List<ConfigKey> concat(List<ConfigKey> first, List<ConfigKey> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }

    private static Credentials credentials(String path, boolean none) {
        if (none) {
            if (!path.isEmpty()) {
                throw new ConfigException(CREDENTIALS_PATH, path, "given with no.credentials=true; choose one");
            }
            return new Credentials.None();
        }
        if (path.isEmpty()) {
            return new Credentials.ApplicationDefault();
        }
        Path file;
        try {
            file = Path.of(path).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new ConfigException(CREDENTIALS_PATH, path, "not a path: " + e.getMessage());
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new ConfigException(CREDENTIALS_PATH, path, "no readable file there");
        }
        return new Credentials.ServiceAccountFile(file);
    }

    private static Optional<URI> endpoint(String text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    || uri.getHost() == null
                    || (uri.getPath() != null
                            && !uri.getPath().isEmpty()
                            && !uri.getPath().equals("/"))) {
                throw new ConfigException(ENDPOINT, text, "not an http or https URL of a host (no path)");
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            throw new ConfigException(ENDPOINT, text, "not a URL: " + e.getMessage());
        }
    }
}
