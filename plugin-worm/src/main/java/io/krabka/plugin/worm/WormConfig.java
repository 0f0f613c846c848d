package io.krabka.plugin.worm;

import io.krabka.archive.ArchiveLayout;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.OfferedKeys;
import io.krabka.spi.plugin.PluginConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of the write-once archive. The store's own settings ({@code store.*}) are the store plugin's; the
 * kernel takes them out before these are parsed.
 *
 * @param store                     the object-store plugin's name, for messages
 * @param layout                    where segments go in the store
 * @param signingKeyPath            the Ed25519 private key that signs every manifest; empty for unsigned manifests
 * @param signingKeyId              the id recorded in every signature
 * @param writeOnly                 whether every remote read is refused
 * @param minRetention              the least default retention the store must enforce
 * @param allowUnenforcedRetention  whether a store that cannot enforce retention is accepted
 * @param customMetadataMaxBytes    the broker's limit on a copy's custom metadata, which holds the chain receipt
 */
record WormConfig(
        String store,
        ArchiveLayout layout,
        Optional<Path> signingKeyPath,
        Optional<String> signingKeyId,
        boolean writeOnly,
        Duration minRetention,
        boolean allowUnenforcedRetention,
        int customMetadataMaxBytes) {

    static final String STORE = ObjectStoreRemoteStorageManagerProvider.STORE_CONFIG;
    static final String PREFIX = "prefix";
    static final String SIGNING_KEY_PATH = "signing.key.path";
    static final String SIGNING_KEY_ID = "signing.key.id";
    static final String WRITE_ONLY = "write.only";
    static final String MIN_RETENTION_DAYS = "min.retention.days";
    static final String ALLOW_UNENFORCED_RETENTION = "allow.unenforced.retention";
    /** Offered by the broker: Kafka's {@code remote.log.metadata.custom.metadata.max.bytes}. */
    static final String CUSTOM_METADATA_MAX_BYTES = OfferedKeys.CUSTOM_METADATA_MAX_BYTES;
    /** The receipt a copy returns: its JSON with two heads, an epoch id and the manifest's version id. */
    static final int RECEIPT_MAX_BYTES = 512;

    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.required(
                    STORE,
                    ConfigType.STRING,
                    "The object-store plugin the archive is written to: s3, gcs, local, or a third party's. Its own "
                            + "settings follow under store. (rsm.config.store.bucket, rsm.config.store.dir, ...)."),
            ConfigKey.optional(
                    PREFIX,
                    ConfigType.STRING,
                    "",
                    "The key prefix of the archive in the store; empty for the store's root."),
            ConfigKey.optional(
                    SIGNING_KEY_PATH,
                    ConfigType.STRING,
                    "",
                    "The Ed25519 private key (PKCS#8, DER or PEM) that signs every manifest. Empty, with an empty "
                            + "signing.key.id: manifests are unsigned, which krabka verify grades as incomplete."),
            ConfigKey.optional(
                    SIGNING_KEY_ID,
                    ConfigType.STRING,
                    "",
                    "The key id recorded in every signature; verify looks the trusted public key up by it. A new id "
                            + "starts a new run of the chain."),
            ConfigKey.optional(
                    WRITE_ONLY,
                    ConfigType.BOOLEAN,
                    false,
                    "Whether every remote read is refused: consumers get OFFSET_OUT_OF_RANGE below the local log "
                            + "while ListOffsets still answers from the archive."),
            ConfigKey.optional(
                            MIN_RETENTION_DAYS,
                            ConfigType.INT,
                            30,
                            "The least default retention, in days, the store must enforce in compliance mode (S3 Object "
                                    + "Lock COMPLIANCE, a locked GCS retention policy) for the broker to start.")
                    .withValidator(ConfigValidator.atLeast(1)),
            ConfigKey.optional(
                    ALLOW_UNENFORCED_RETENTION,
                    ConfigType.BOOLEAN,
                    false,
                    "Whether a store that cannot enforce retention (a local directory, a bucket without a locked "
                            + "retention) is accepted; every object is then guarded by nothing but the conditional "
                            + "create, and the broker says so at start."),
            ConfigKey.optional(
                    CUSTOM_METADATA_MAX_BYTES,
                    ConfigType.INT,
                    128,
                    "Set by the broker to remote.log.metadata.custom.metadata.max.bytes, which must leave room for "
                            + "the chain receipt (" + RECEIPT_MAX_BYTES + " bytes)."));

    /** Validates the parts. */
    WormConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(signingKeyPath, "signingKeyPath");
        Objects.requireNonNull(signingKeyId, "signingKeyId");
        Objects.requireNonNull(minRetention, "minRetention");
    }

    /**
     * Checks and parses the archive's settings.
     *
     * @throws ConfigException naming the key for anything missing, unknown or invalid, a key path without an id or
     *                         an id without a path, or a custom-metadata limit that leaves no room for the receipt
     */
    static WormConfig parse(Map<String, ?> configs) {
        PluginConfig config = PluginConfig.parse(KEYS, configs);
        String path = config.getString(SIGNING_KEY_PATH).strip();
        String id = config.getString(SIGNING_KEY_ID).strip();
        if (path.isEmpty() != id.isEmpty()) {
            throw new ConfigException(
                    path.isEmpty()
                            ? SIGNING_KEY_ID + " is set but " + SIGNING_KEY_PATH + " is not: a key id needs its key"
                            : SIGNING_KEY_PATH + " is set but " + SIGNING_KEY_ID
                                    + " is not: every signature records its key id");
        }
        int customMetadataMaxBytes = config.getInt(CUSTOM_METADATA_MAX_BYTES);
        if (customMetadataMaxBytes < RECEIPT_MAX_BYTES) {
            throw new ConfigException(
                    CUSTOM_METADATA_MAX_BYTES,
                    customMetadataMaxBytes,
                    "the write-once archive "
                            + "stores its chain receipt in each segment's custom metadata: set it to at least "
                            + RECEIPT_MAX_BYTES);
        }
        ArchiveLayout layout;
        try {
            layout = ArchiveLayout.underPrefix(config.getString(PREFIX));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(PREFIX, config.getString(PREFIX), e.getMessage());
        }
        return new WormConfig(
                config.getString(STORE),
                layout,
                path.isEmpty() ? Optional.empty() : Optional.of(Path.of(path)),
                id.isEmpty() ? Optional.empty() : Optional.of(id),
                config.getBoolean(WRITE_ONLY),
                Duration.ofDays(config.getInt(MIN_RETENTION_DAYS)),
                config.getBoolean(ALLOW_UNENFORCED_RETENTION),
                customMetadataMaxBytes);
    }
}
