package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.metrics.MetricName;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.metrics.RegistryPluginMetrics;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.kernel.plugin.PluginSelection;
import io.krabka.kernel.plugin.RemoteStoragePlugins;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.kernel.tiered.BrokerRemoteStorageContext;
import io.krabka.kernel.tiered.RemoteFetchMetrics;
import io.krabka.kernel.tiered.RemoteIndexCache;
import io.krabka.kernel.tiered.RemoteLogManager;
import io.krabka.kernel.tiered.RemoteLogManagerConfig;
import io.krabka.kernel.tiered.RemoteLogReader;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.OfferedKeys;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The broker's tiered storage, when {@code remote.log.storage.system.enable} is true: the storage and metadata
 * manager plugins the configuration selects (offered the SPI's {@link OfferedKeys}: {@code broker.id},
 * {@code cluster.id}, {@code log.dir} as Kafka offers them, {@code tiered.storage.dir} for their own files, the custom
 * metadata cap and the metadata manager's bootstrap address; each publishing its metrics under its name), the remote index cache in the first log directory, the remote log
 * manager (copies and remote retention, on threads of its own) and the reader of remote segments for fetches.
 */
final class TieredStorage implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TieredStorage.class.getName());

    private final List<AutoCloseable> started;
    private final RemoteLogManager remoteLogManager;
    private final AsyncRemoteLogReader reader;

    private TieredStorage(List<AutoCloseable> started, RemoteLogManager remoteLogManager, AsyncRemoteLogReader reader) {
        this.started = started;
        this.remoteLogManager = remoteLogManager;
        this.reader = reader;
    }

    /**
     * Loads and configures the plugins and starts the remote log manager; nothing when tiered storage is off.
     *
     * @throws io.krabka.kernel.plugin.PluginLoadException if a plugin cannot be found, created or configured
     * @throws io.krabka.spi.plugin.ConfigException       if a plugin's setting is unknown, missing or invalid
     * @throws IOException                                if the remote index cache's directory cannot be used
     */
    static Optional<TieredStorage> start(BrokerContext context, LogManager logManager) throws IOException {
        BrokerConfig config = context.config();
        RemoteLogManagerConfig settings = config.remoteLogManagerConfig();
        if (!settings.remoteLogStorageSystemEnable()) {
            return Optional.empty();
        }
        List<AutoCloseable> started = new ArrayList<>();
        try {
            Path logDir = config.logDirs().getFirst();
            // Kafka offers log.dir; plugins keep their own files in tiered.storage.dir, outside every log directory.
            Path tieredDir = Files.createDirectories(config.tieredStorageDir());
            Map<String, Object> offered = new HashMap<>(Map.of(
                    OfferedKeys.BROKER_ID,
                    config.nodeId(),
                    OfferedKeys.CLUSTER_ID,
                    context.clusterId(),
                    OfferedKeys.LOG_DIR,
                    logDir.toAbsolutePath().toString(),
                    OfferedKeys.TIERED_STORAGE_DIR,
                    tieredDir.toString(),
                    OfferedKeys.CUSTOM_METADATA_MAX_BYTES,
                    settings.remoteLogMetadataCustomMetadataMaxBytes()));
            offered.putAll(MetadataManagerListener.offered(
                    config.listener(), settings.remoteLogMetadataManagerListenerName()));
            PluginRegistry registry = PluginDiscovery.discover()
                    .withMetrics((kind, name) ->
                            RegistryPluginMetrics.of(context.metrics(), "kafka.log.remote", metricsType(kind), name));
            registry.broken()
                    .forEach(folder -> LOG.log(
                            System.Logger.Level.WARNING,
                            // The reason names the folder.
                            "Skipped: {0}",
                            folder.reason()));
            RemoteStoragePlugins plugins = new RemoteStoragePlugins(registry);
            AtomicReference<RemoteLogMetadataManager> metadata = new AtomicReference<>();
            String rsmName = settings.remoteStorageManagerClassName().orElseThrow();
            RemoteStorageManager rsm = withPrefix(
                    "remote storage manager",
                    rsmName,
                    settings.remoteStorageManagerPrefix(),
                    () -> plugins.remoteStorageManager(
                            new PluginSelection(
                                    rsmName,
                                    classPath(settings.remoteStorageManagerClassPath()),
                                    RemoteLogManagerConfig.withoutPrefix(
                                            config.originals(), settings.remoteStorageManagerPrefix()),
                                    offered),
                            (name, store, storeName, metrics) ->
                                    new BrokerRemoteStorageContext(store, storeName, metadata::get, metrics)));
            started.add(rsm);
            String rlmmName = settings.remoteLogMetadataManagerClassName();
            RemoteLogMetadataManager rlmm = withPrefix(
                    "remote log metadata manager",
                    rlmmName,
                    settings.remoteLogMetadataManagerPrefix(),
                    () -> plugins.remoteLogMetadataManager(new PluginSelection(
                            rlmmName,
                            classPath(settings.remoteLogMetadataManagerClassPath()),
                            RemoteLogManagerConfig.withoutPrefix(
                                    config.originals(), settings.remoteLogMetadataManagerPrefix()),
                            offered)));
            started.add(rlmm);
            metadata.set(rlmm);
            RemoteIndexCache indexCache =
                    new RemoteIndexCache(settings.remoteLogIndexFileCacheTotalSizeBytes(), rsm, logDir);
            started.add(indexCache);
            publishIndexCacheMetrics(context.metrics(), indexCache);
            // Copies and expiration share one pool; remote.log.manager.thread.pool.size is Kafka's for followers.
            // The plugins close (storage manager, then metadata manager, as Kafka's) only after the threads that call
            // them: what is started closes in reverse, so after the remote log manager and its scheduler.
            started.remove(rlmm);
            started.remove(rsm);
            started.add(() -> closePlugins(rsm, rlmm));
            KafkaScheduler scheduler = new KafkaScheduler(
                    settings.remoteLogManagerCopierThreadPoolSize()
                            + settings.remoteLogManagerExpirationThreadPoolSize(),
                    "kafka-rlm-thread-pool-");
            started.add(scheduler::shutdown);
            RemoteFetchMetrics fetchMetrics = new RemoteFetchMetrics(context.metrics());
            RemoteLogManager remoteLogManager = new RemoteLogManager(
                    settings,
                    config.nodeId(),
                    rsm,
                    rlmm,
                    logManager::getLog,
                    scheduler,
                    context.time(),
                    context.metrics(),
                    indexCache::remove,
                    fetchMetrics::removeTopic);
            started.add(remoteLogManager);
            AsyncRemoteLogReader reader = new AsyncRemoteLogReader(
                    new RemoteLogReader(rsm, rlmm, indexCache), settings.readConfig(), fetchMetrics, context.time());
            started.add(reader);
            return Optional.of(new TieredStorage(started, remoteLogManager, reader));
        } catch (IOException | RuntimeException e) {
            closeAll(started, e);
            throw e;
        }
    }

    /**
     * Creates a plugin; a setting it refuses is named as the broker's configuration names it, with the plugin: the
     * plugin itself sees its settings without the prefix.
     */
    private static <T> T withPrefix(String what, String name, String prefix, Supplier<T> create) {
        try {
            return create.get();
        } catch (ConfigException e) {
            throw new ConfigException(
                    "the " + what + " '" + name + "' refuses its settings (" + prefix + "*): " + e.getMessage());
        }
    }

    /** The {@code type} of a plugin's metrics: the extension point it fills, as the SPI's PluginMetrics says. */
    private static String metricsType(PluginKind kind) {
        return switch (kind) {
            case REMOTE_STORAGE_MANAGER -> "RemoteStorageManager";
            case REMOTE_LOG_METADATA_MANAGER -> "RemoteLogMetadataManager";
            case OBJECT_STORE -> "ObjectStore";
        };
    }

    private static List<Path> classPath(Optional<String> text) {
        return text.map(path -> Arrays.stream(path.split(File.pathSeparator))
                        .filter(entry -> !entry.isBlank())
                        .map(Path::of)
                        .toList())
                .orElse(List.of());
    }

    private static void publishIndexCacheMetrics(MetricsRegistry metrics, RemoteIndexCache indexCache) {
        metrics.meter(
                MetricName.of("kafka.log.remote", "RemoteIndexCache", "HitsPerSec"),
                "hits",
                () -> indexCache.stats().hitCount());
        metrics.meter(
                MetricName.of("kafka.log.remote", "RemoteIndexCache", "MissesPerSec"),
                "misses",
                () -> indexCache.stats().missCount());
        metrics.meter(
                MetricName.of("kafka.log.remote", "RemoteIndexCache", "EvictionsPerSec"),
                "evictions",
                () -> indexCache.stats().evictionCount());
    }

    private static void closePlugins(RemoteStorageManager rsm, RemoteLogMetadataManager rlmm) throws IOException {
        try {
            rsm.close();
        } finally {
            rlmm.close();
        }
    }

    /** The remote log manager, to be registered as a metadata publisher after the replica manager. */
    RemoteLogManager remoteLogManager() {
        return remoteLogManager;
    }

    /** The reader of remote segments, for the replica manager's fetches and offset lookups. */
    AsyncRemoteLogReader reader() {
        return reader;
    }

    /** Stops the reader, the remote log manager (and its plugins), its threads and the index cache. */
    @Override
    public void close() throws IOException {
        closeAll(started, null);
    }

    private static void closeAll(List<AutoCloseable> started, Exception failure) throws IOException {
        IOException closing = null;
        for (AutoCloseable part : started.reversed()) {
            try {
                part.close();
            } catch (Exception e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (closing == null) {
                    closing = new IOException("stopping tiered storage failed", e);
                } else {
                    closing.addSuppressed(e);
                }
            }
        }
        started.clear();
        if (closing != null) {
            throw closing;
        }
    }
}
