package io.krabka.spi.plugin;

/**
 * The broker's settings the kernel offers a plugin: a plugin that declares a {@link ConfigKey} of one of these names
 * among its {@link PluginProvider#configKeys()} is configured with the broker's value, as Kafka's broker offers its
 * metadata managers {@code broker.id}, {@code cluster.id} and {@code log.dir}. A plugin that does not declare a key
 * is not offered it (its settings stay exactly those it declares); a value given under the plugin's own prefix
 * ({@code rsm.config.}, {@code rlmm.config.}) wins over the broker's. Declare an offered key with a default, or as
 * required: tools that run plugins without a broker ({@code krabka verify}, {@code krabka restore}) offer none of
 * them. Since SPI 1.3; the kernel offered the same keys before.
 */
public final class OfferedKeys {

    /** The broker's node id ({@code node.id}), an {@link ConfigType#INT}. */
    public static final String BROKER_ID = "broker.id";

    /** The cluster's id as {@code meta.properties} holds it (base64 of 16 bytes), a {@link ConfigType#STRING}. */
    public static final String CLUSTER_ID = "cluster.id";

    /** The absolute path of the broker's first log directory, a {@link ConfigType#STRING}; a plugin never writes in it. */
    public static final String LOG_DIR = "log.dir";

    /**
     * A directory for the plugin's own files, outside every log directory ({@code <first log dir>-tiered} unless
     * the broker's {@code tiered.storage.dir} says otherwise), created by the broker; a {@link ConfigType#STRING}.
     */
    public static final String TIERED_STORAGE_DIR = "tiered.storage.dir";

    /**
     * The broker's cap on the custom metadata a copy may return ({@code remote.log.metadata.custom.metadata.max.bytes},
     * 128 by default), an {@link ConfigType#INT}: a remote storage manager that returns more fails the copy, so one
     * that stamps metadata into its copies declares this key and checks its size at configure time.
     */
    public static final String CUSTOM_METADATA_MAX_BYTES = "remote.log.metadata.custom.metadata.max.bytes";

    /**
     * The {@code host:port} a metadata manager's own Kafka clients reach this broker at (the listener
     * {@code remote.log.metadata.manager.listener.name} names, else the broker's), a {@link ConfigType#STRING}; not
     * offered when the broker listens on an ephemeral port.
     */
    public static final String METADATA_BOOTSTRAP_SERVERS = "remote.log.metadata.common.client.bootstrap.servers";

    /** The security protocol of that listener ({@code PLAINTEXT}), a {@link ConfigType#STRING}; offered with it. */
    public static final String METADATA_SECURITY_PROTOCOL = "remote.log.metadata.common.client.security.protocol";

    private OfferedKeys() {}
}
