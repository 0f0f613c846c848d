package io.krabka.kernel.plugin;

/** Java sources of the plugins the tests compile, as format templates. */
final class PluginSources {

    /** {@code %1$s} module and package, {@code %2$s} extra requires. */
    static final String MODULE_INFO = """
            module %1$s {
                requires io.krabka.spi;
                %2$s
                provides io.krabka.spi.plugin.RemoteStorageManagerProvider with %1$s.ProbeProvider;
            }
            """;

    /**
     * {@code %1$s} package, {@code %2$s} plugin name, {@code %3$s} SPI version expression, {@code %4$s} constructor
     * body, {@code %5$s} body of {@code create()}.
     */
    static final String PROBE_PROVIDER = """
            package %1$s;

            import io.krabka.spi.plugin.ConfigKey;
            import io.krabka.spi.plugin.ConfigType;
            import io.krabka.spi.plugin.RemoteStorageManagerProvider;
            import io.krabka.spi.plugin.SpiVersion;
            import io.krabka.spi.storage.RemoteStorageManager;
            import java.util.List;

            public final class ProbeProvider implements RemoteStorageManagerProvider {
                public ProbeProvider() {
                    %4$s
                }

                @Override
                public String name() {
                    return "%2$s";
                }

                @Override
                public String spiVersion() {
                    return %3$s;
                }

                @Override
                public List<ConfigKey> configKeys() {
                    return List.of(ConfigKey.required("bucket", ConfigType.STRING, "Where segments go."),
                            ConfigKey.optional("parts", ConfigType.INT, 3, "How many parts a segment is cut into."));
                }

                @Override
                public RemoteStorageManager create() {
                    %5$s
                }

                @Override
                public String description() {
                    return "Reports what plugin code sees.";
                }
            }
            """;

    /** {@code %1$s} package, {@code %2$s} expression giving the helper library's version. */
    static final String PROBE_STORAGE = """
            package %1$s;

            import io.krabka.spi.plugin.Monitorable;
            import io.krabka.spi.plugin.PluginMetrics;
            import io.krabka.spi.storage.CustomMetadata;
            import io.krabka.spi.storage.IndexType;
            import io.krabka.spi.storage.LogSegmentData;
            import io.krabka.spi.storage.RemoteLogSegmentMetadata;
            import io.krabka.spi.storage.RemoteResourceNotFoundException;
            import io.krabka.spi.storage.RemoteStorageManager;
            import java.io.ByteArrayInputStream;
            import java.io.InputStream;
            import java.nio.charset.StandardCharsets;
            import java.util.Map;
            import java.util.Optional;
            import java.util.TreeMap;

            public final class ProbeStorage implements RemoteStorageManager, Monitorable {
                private final String atCreate = contextLoader();
                private String atConfigure = "never";
                private String metricsGiven = "never";
                private PluginMetrics.Counter reports = events -> {};
                private Map<String, Object> configs = Map.of();

                @Override
                public void withPluginMetrics(PluginMetrics metrics) {
                    metricsGiven = (atConfigure.equals("never") ? "before" : "after") + "-configure";
                    reports = metrics.counter("ProbeReportsPerSec");
                    metrics.gauge("ProbeConfigs", configs::size);
                }

                @Override
                public void configure(Map<String, ?> configs) {
                    this.atConfigure = contextLoader();
                    this.configs = new TreeMap<String, Object>(configs);
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType) {
                    reports.increment(1);
                    if (indexType == IndexType.TRANSACTION) {
                        // The one report of how the kernel handed over metrics.
                        return new ByteArrayInputStream(("metrics=" + metricsGiven).getBytes(StandardCharsets.UTF_8));
                    }
                    String report = "create=" + atCreate + " configure=" + atConfigure + " call=" + contextLoader()
                            + " config=" + configs + " kernel=" + kernelVisibility() + " helper=" + %2$s;
                    return new ByteArrayInputStream(report.getBytes(StandardCharsets.UTF_8));
                }

                private static String contextLoader() {
                    ClassLoader context = Thread.currentThread().getContextClassLoader();
                    return context == ProbeStorage.class.getClassLoader() ? "plugin" : String.valueOf(context);
                }

                private static String kernelVisibility() {
                    try {
                        Class.forName("io.krabka.kernel.plugin.PluginRegistry", false, ProbeStorage.class.getClassLoader());
                        return "visible";
                    } catch (ClassNotFoundException e) {
                        return "hidden";
                    }
                }

                @Override
                public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data) {
                    return Optional.empty();
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
                        throws RemoteResourceNotFoundException {
                    throw new RemoteResourceNotFoundException("a probe holds no segments");
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
                        throws RemoteResourceNotFoundException {
                    throw new RemoteResourceNotFoundException("a probe holds no segments");
                }

                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) {
                }

                @Override
                public void close() {
                }
            }
            """;

    /** {@code %s} the version {@code Greeting.version()} answers. */
    static final String HELPER = """
            package com.example.helper;

            public final class Greeting {
                private Greeting() {
                }

                public static String version() {
                    return "%s";
                }
            }
            """;

    /** {@code %s} package. */
    static final String LEDGER_PROVIDER = """
            package %s;

            import io.krabka.spi.plugin.ConfigKey;
            import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
            import io.krabka.spi.plugin.SpiVersion;
            import io.krabka.spi.storage.RemoteLogMetadataManager;
            import java.util.List;

            public final class LedgerProvider implements RemoteLogMetadataManagerProvider {
                @Override
                public String name() {
                    return "ledger";
                }

                @Override
                public String spiVersion() {
                    return SpiVersion.CURRENT;
                }

                @Override
                public List<ConfigKey> configKeys() {
                    return List.of();
                }

                @Override
                public RemoteLogMetadataManager create() {
                    return new Ledger();
                }

                @Override
                public String description() {
                    return "Says whether it runs under its own class loader.";
                }
            }
            """;

    /** {@code %s} package. */
    static final String LEDGER = """
            package %s;

            import io.krabka.spi.common.TopicIdPartition;
            import io.krabka.spi.storage.RemoteLogMetadataManager;
            import io.krabka.spi.storage.RemoteLogSegmentMetadata;
            import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
            import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
            import java.util.Collections;
            import java.util.Iterator;
            import java.util.Map;
            import java.util.Optional;
            import java.util.Set;
            import java.util.concurrent.CompletableFuture;

            public final class Ledger implements RemoteLogMetadataManager {
                @Override
                public boolean isReady(TopicIdPartition partition) {
                    return Thread.currentThread().getContextClassLoader() == Ledger.class.getClassLoader();
                }

                @Override
                public void configure(Map<String, ?> configs) {
                }

                @Override
                public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata metadata) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(TopicIdPartition partition, int epoch, long offset) {
                    return Optional.empty();
                }

                @Override
                public Optional<Long> highestOffsetForEpoch(TopicIdPartition partition, int epoch) {
                    return Optional.empty();
                }

                @Override
                public CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata metadata) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition partition) {
                    return Collections.emptyIterator();
                }

                @Override
                public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition partition, int epoch) {
                    return Collections.emptyIterator();
                }

                @Override
                public void onPartitionLeadershipChanges(Set<TopicIdPartition> leaders, Set<TopicIdPartition> followers) {
                }

                @Override
                public void onStopPartitions(Set<TopicIdPartition> partitions) {
                }

                @Override
                public long remoteLogSize(TopicIdPartition partition, int epoch) {
                    return 0;
                }

                @Override
                public void close() {
                }
            }
            """;

    private PluginSources() {}
}
