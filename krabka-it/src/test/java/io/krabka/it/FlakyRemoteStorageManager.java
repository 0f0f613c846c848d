package io.krabka.it;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * A remote storage manager that fails on a schedule: the {@code local} plugin (found on its own class path) does
 * the work, and every {@code fail.copy.every}-th copy fails after the files are written (a copy torn at the last
 * moment), every {@code fail.fetch.every}-th segment fetch fails before reading. The broker loads it as Kafka loads
 * a plugin class, through {@code remote.log.storage.manager.class.path}; it uses nothing but the SPI and the JDK.
 */
public final class FlakyRemoteStorageManager implements RemoteStorageManager {
    private final AtomicLong copies = new AtomicLong();
    private final AtomicLong fetches = new AtomicLong();
    private RemoteStorageManager local;
    private long failCopyEvery;
    private long failFetchEvery;

    @Override
    public void configure(Map<String, ?> configs) {
        failCopyEvery = Long.parseLong(String.valueOf(configs.get("fail.copy.every")));
        failFetchEvery = Long.parseLong(String.valueOf(configs.get("fail.fetch.every")));
        RemoteStorageManagerProvider provider =
                ServiceLoader.load(RemoteStorageManagerProvider.class, FlakyRemoteStorageManager.class.getClassLoader())
                        .stream()
                        .map(ServiceLoader.Provider::get)
                        .filter(p -> p.name().equals("local"))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException("the local plugin is not on the class path"));
        Set<String> keys = provider.configKeys().stream().map(ConfigKey::name).collect(Collectors.toSet());
        local = provider.create();
        local.configure(configs.entrySet().stream()
                .filter(e -> keys.contains(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Optional<CustomMetadata> copied = local.copyLogSegmentData(metadata, data);
        if (copies.incrementAndGet() % failCopyEvery == 0) {
            throw new RemoteStorageException("scheduled copy failure " + copies.get() + " of " + metadata);
        }
        return copied;
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        failFetchOnSchedule(metadata);
        return local.fetchLogSegment(metadata, startPosition);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        failFetchOnSchedule(metadata);
        return local.fetchLogSegment(metadata, startPosition, endPosition);
    }

    private void failFetchOnSchedule(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        if (fetches.incrementAndGet() % failFetchEvery == 0) {
            throw new RemoteStorageException("scheduled fetch failure " + fetches.get() + " of " + metadata);
        }
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        return local.fetchIndex(metadata, indexType);
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        local.deleteLogSegmentData(metadata);
    }

    @Override
    public void close() throws IOException {
        if (local != null) {
            local.close();
        }
    }
}
