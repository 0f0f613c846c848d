package io.krabka.plugin.rsm.s3;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.PluginConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of one S3 bucket as an object store: the {@code s3} store's own settings, and all of the {@code s3}
 * remote tier's but its {@code prefix} (a key layout belongs to whoever uses the store).
 *
 * @param bucket          the bucket
 * @param region          the signing region; empty for the SDK's default region chain
 * @param endpoint        an endpoint that replaces AWS's (any S3-compatible service); empty for AWS
 * @param pathStyleAccess whether the bucket goes in the path rather than the host name
 * @param credentials     static credentials; empty for the SDK's default credentials chain
 * @param storageClass    the storage class of new objects; empty for the bucket's default
 * @param apiCallTimeout  the limit on one operation, retries included
 * @param attemptTimeout  the limit on one attempt of an operation
 * @param retries         how many times a failed attempt is retried
 * @param checksumWhenRequired whether request checksums are sent only when an operation requires them
 * @param multipart       when and how files are uploaded in parts
 */
record S3StoreConfig(
        String bucket,
        Optional<String> region,
        Optional<URI> endpoint,
        boolean pathStyleAccess,
        Optional<StaticCredentials> credentials,
        Optional<String> storageClass,
        Duration apiCallTimeout,
        Duration attemptTimeout,
        int retries,
        boolean checksumWhenRequired,
        MultipartPolicy multipart) {

    static final String BUCKET = "bucket";
    static final String REGION = "region";
    static final String ENDPOINT = "endpoint";
    static final String PATH_STYLE_ACCESS = "path.style.access";
    static final String ACCESS_KEY_ID = "access.key.id";
    static final String SECRET_ACCESS_KEY = "secret.access.key";
    static final String STORAGE_CLASS = "storage.class";
    static final String API_CALL_TIMEOUT_MS = "api.call.timeout.ms";
    static final String API_CALL_ATTEMPT_TIMEOUT_MS = "api.call.attempt.timeout.ms";
    static final String RETRIES = "retries";
    static final String CHECKSUM_CALCULATION = "checksum.calculation";
    static final String MULTIPART_THRESHOLD_BYTES = "multipart.threshold.bytes";
    static final String MULTIPART_PART_SIZE_BYTES = "multipart.part.size.bytes";
    static final String MULTIPART_CONCURRENCY = "multipart.concurrency";
    static final String ALLOW_HTTP = "allow.http";

    private static final long MIB = 1 << 20;

    /** The keys after the bucket that the store and the remote tier share, in the order they are declared. */
    static final List<ConfigKey> CLIENT_KEYS = List.of(
            ConfigKey.optional(
                    REGION,
                    ConfigType.STRING,
                    "",
                    "The region, e.g. eu-west-1; empty for the SDK's default region chain (AWS_REGION, profile). "
                            + "Give any name, e.g. us-east-1, for an S3-compatible service."),
            ConfigKey.optional(
                    ENDPOINT,
                    ConfigType.STRING,
                    "",
                    "An http(s) URL that replaces AWS's endpoint, for S3-compatible services (Ceph, MinIO, ...); "
                            + "empty for AWS."),
            ConfigKey.optional(
                    PATH_STYLE_ACCESS,
                    ConfigType.BOOLEAN,
                    false,
                    "Whether requests name the bucket in the path (http://host/bucket/key) rather than in the host "
                            + "name; most S3-compatible services need true."),
            ConfigKey.optional(
                    ACCESS_KEY_ID,
                    ConfigType.STRING,
                    "",
                    "A static access key id, with secret.access.key; empty for the SDK's default credentials chain "
                            + "(environment, profile, container or instance role)."),
            ConfigKey.optional(SECRET_ACCESS_KEY, ConfigType.PASSWORD, "", "The secret of access.key.id."),
            ConfigKey.optional(
                    STORAGE_CLASS,
                    ConfigType.STRING,
                    "",
                    "The storage class of new objects, e.g. STANDARD_IA or INTELLIGENT_TIERING; empty for the "
                            + "bucket's default. Classes that need a restore before a read (GLACIER, DEEP_ARCHIVE) "
                            + "make reads fail."),
            ConfigKey.optional(
                            API_CALL_TIMEOUT_MS,
                            ConfigType.LONG,
                            300_000L,
                            "The limit on one S3 operation (one PUT, one part, one GET's response headers), retries included, "
                                    + "in milliseconds.")
                    .withValidator(ConfigValidator.atLeast(1)),
            ConfigKey.optional(
                            API_CALL_ATTEMPT_TIMEOUT_MS,
                            ConfigType.LONG,
                            120_000L,
                            "The limit on one attempt of an S3 operation, in milliseconds; a slower attempt is retried.")
                    .withValidator(ConfigValidator.atLeast(1)),
            ConfigKey.optional(
                            RETRIES,
                            ConfigType.INT,
                            3,
                            "How many times the SDK retries a failed attempt (throttling, 5xx, a broken connection) with "
                                    + "backoff; 0 for none.")
                    .withValidator(ConfigValidator.between(0, 100)),
            ConfigKey.optional(
                            CHECKSUM_CALCULATION,
                            ConfigType.STRING,
                            "when_supported",
                            "when_supported: every upload carries a CRC checksum the service verifies (AWS's default); "
                                    + "when_required: only operations that require one do, and bodies are sent whole rather than "
                                    + "aws-chunked (over plain http the SDK then hashes each body before sending it). Ceph "
                                    + "radosgw 16 and other older services need when_required (else 400 "
                                    + "XAmzContentSHA256Mismatch).")
                    .withValidator(ConfigValidator.oneOf("when_supported", "when_required")),
            ConfigKey.optional(
                            MULTIPART_THRESHOLD_BYTES,
                            ConfigType.LONG,
                            100 * MIB,
                            "Files of at least this many bytes are uploaded in parts (multipart upload); smaller ones in "
                                    + "one PUT. At most 5 GiB, S3's limit for one PUT.")
                    .withValidator(ConfigValidator.between(1, 5L << 30)),
            ConfigKey.optional(
                            MULTIPART_PART_SIZE_BYTES,
                            ConfigType.LONG,
                            16 * MIB,
                            "The size of each part of a multipart upload, from 5 MiB to 5 GiB (S3's limits); a file that "
                                    + "would need more than 10,000 parts is refused.")
                    .withValidator(ConfigValidator.between(5 * MIB, 5L << 30)),
            ConfigKey.optional(
                            MULTIPART_CONCURRENCY,
                            ConfigType.INT,
                            4,
                            "How many parts of one multipart upload are sent at once, each streamed from its region of the "
                                    + "file; 1 sends them one after another.")
                    .withValidator(ConfigValidator.between(1, 32)));

    /** The keys of the {@code s3} object store, as its provider declares them. */
    static final List<ConfigKey> KEYS = storeKeys();

    /** Validates the parts. */
    S3StoreConfig {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(storageClass, "storageClass");
        Objects.requireNonNull(apiCallTimeout, "apiCallTimeout");
        Objects.requireNonNull(attemptTimeout, "attemptTimeout");
        Objects.requireNonNull(multipart, "multipart");
    }

    /**
     * An access key and its secret.
     *
     * @param accessKeyId     the key id
     * @param secretAccessKey the secret, never printed
     */
    record StaticCredentials(String accessKeyId, String secretAccessKey) {
        @Override
        public String toString() {
            return "StaticCredentials[accessKeyId=" + accessKeyId + ", secretAccessKey=[hidden]]";
        }
    }

    private static List<ConfigKey> storeKeys() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.required(BUCKET, ConfigType.STRING, "The bucket; it must exist.")
                .withValidator(ConfigValidator.nonBlank()));
        keys.addAll(CLIENT_KEYS);
        keys.add(ConfigKey.optional(
                ALLOW_HTTP,
                ConfigType.BOOLEAN,
                false,
                "Whether an http:// endpoint is accepted. Over plain http the objects travel unencrypted and the "
                        + "answers unauthenticated, so the store refuses one unless this is true (a test server on "
                        + "127.0.0.1, a service behind a trusted network)."));
        return List.copyOf(keys);
    }

    /**
     * Checks and parses the store's settings, raw or already parsed.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid, and for an
     *                         http endpoint without {@code allow.http=true}
     */
    static S3StoreConfig parse(Map<String, ?> configs) {
        PluginConfig config = PluginConfig.parse(KEYS, configs);
        return of(config, config.getBoolean(ALLOW_HTTP));
    }

    /**
     * The store's part of parsed settings that hold at least {@link #BUCKET} and {@link #CLIENT_KEYS}.
     *
     * @param allowHttp whether an http endpoint is accepted
     * @throws ConfigException naming the key and the value for anything invalid
     */
    static S3StoreConfig of(PluginConfig config, boolean allowHttp) {
        String keyId = config.getString(ACCESS_KEY_ID);
        String secret = config.getString(SECRET_ACCESS_KEY);
        if (keyId.isEmpty() != secret.isEmpty()) {
            throw new ConfigException(
                    keyId.isEmpty() ? ACCESS_KEY_ID : SECRET_ACCESS_KEY,
                    "\"\"",
                    "access.key.id and secret.access.key are given together or not at all");
        }
        return new S3StoreConfig(
                config.getString(BUCKET),
                optional(config.getString(REGION)),
                endpoint(config.getString(ENDPOINT), allowHttp),
                config.getBoolean(PATH_STYLE_ACCESS),
                keyId.isEmpty() ? Optional.empty() : Optional.of(new StaticCredentials(keyId, secret)),
                optional(config.getString(STORAGE_CLASS)),
                Duration.ofMillis(config.getLong(API_CALL_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(API_CALL_ATTEMPT_TIMEOUT_MS)),
                config.getInt(RETRIES),
                config.getString(CHECKSUM_CALCULATION).equals("when_required"),
                new MultipartPolicy(
                        config.getLong(MULTIPART_THRESHOLD_BYTES),
                        config.getLong(MULTIPART_PART_SIZE_BYTES),
                        config.getInt(MULTIPART_CONCURRENCY)));
    }

    private static Optional<String> optional(String value) {
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<URI> endpoint(String text, boolean allowHttp) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new ConfigException(ENDPOINT, text, "not a URL: " + e.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new ConfigException(ENDPOINT, text, "not an http or https URL with a host");
        }
        if ("http".equals(uri.getScheme()) && !allowHttp) {
            throw new ConfigException(
                    ENDPOINT, text, "a plain http endpoint; set " + ALLOW_HTTP + "=true to accept one");
        }
        return Optional.of(uri);
    }
}
