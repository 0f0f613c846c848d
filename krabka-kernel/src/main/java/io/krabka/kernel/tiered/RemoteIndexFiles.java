package io.krabka.kernel.tiered;

import io.krabka.kernel.log.CorruptIndexException;
import io.krabka.kernel.log.LogFileUtils;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The cache directory's files: fetching a segment's indexes into it so that no reader ever sees half a file, and
 * finding the complete entries an earlier run left.
 */
final class RemoteIndexFiles {

    private static final System.Logger LOG = System.getLogger(RemoteIndexFiles.class.getName());

    private static final Pattern INDEX_FILE =
            Pattern.compile("(\\d{1,19})_([A-Za-z0-9_-]{22})\\.(index|timeindex|txnindex)");

    private final Path dir;
    private final RemoteStorageManager remoteStorageManager;

    RemoteIndexFiles(Path dir, RemoteStorageManager remoteStorageManager) {
        this.dir = dir;
        this.remoteStorageManager = remoteStorageManager;
    }

    Path dir() {
        return dir;
    }

    /**
     * Fetches a segment's offset, time and transaction index: each is written to a {@code .tmp} file and synced,
     * all three are checked, then renamed to their live names and the directory synced. A missing transaction
     * index is an empty one. On any failure no file of the segment is left.
     */
    IndexCacheEntry fetch(RemoteLogSegmentMetadata metadata) throws RemoteStorageException, IOException {
        Uuid segmentId = metadata.remoteLogSegmentId().id();
        IndexFileSet live = IndexFileSet.of(dir, metadata.startOffset(), segmentId);
        IndexFileSet tmp = live.withSuffix(RemoteIndexCache.TMP_FILE_SUFFIX);
        IndexCacheEntry entry = null;
        try {
            store(metadata, IndexType.OFFSET, tmp.offsetIndex());
            store(metadata, IndexType.TIMESTAMP, tmp.timeIndex());
            store(metadata, IndexType.TRANSACTION, tmp.txnIndex());
            entry = IndexCacheEntry.open(segmentId, metadata.startOffset(), live, tmp);
            entry.rename(live);
            syncDirectory();
            return entry;
        } catch (RemoteStorageException | IOException | RuntimeException | Error e) {
            if (entry != null) {
                entry.unmap();
            }
            for (Path file : List.of(
                    tmp.offsetIndex(),
                    tmp.timeIndex(),
                    tmp.txnIndex(),
                    live.offsetIndex(),
                    live.timeIndex(),
                    live.txnIndex())) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException deleteFailure) {
                    e.addSuppressed(deleteFailure);
                }
            }
            throw e;
        }
    }

    private void store(RemoteLogSegmentMetadata metadata, IndexType type, Path target)
            throws RemoteStorageException, IOException {
        try (InputStream in = openIndex(metadata, type);
                FileChannel channel = FileChannel.open(
                        target,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE)) {
            in.transferTo(Channels.newOutputStream(channel));
            channel.force(true);
        }
    }

    private InputStream openIndex(RemoteLogSegmentMetadata metadata, IndexType type) throws RemoteStorageException {
        InputStream in;
        try {
            in = remoteStorageManager.fetchIndex(metadata, type);
        } catch (RemoteResourceNotFoundException e) {
            if (type == IndexType.TRANSACTION) {
                // A segment without aborted transactions may have no transaction index (and those written
                // before Kafka 2.8 have none at all).
                return InputStream.nullInputStream();
            }
            throw e;
        }
        if (in == null) {
            throw new RemoteStorageException("the remote storage manager returned no stream for the " + type
                    + " index of " + metadata.remoteLogSegmentId());
        }
        return in;
    }

    private void syncDirectory() throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * Creates the directory if needed, deletes {@code .tmp} and {@code .deleted} leftovers, and opens every
     * complete, sound entry left by an earlier run, least recently fetched first. Incomplete or corrupt entries
     * are deleted, to be fetched again when asked for. Files not named like cache files are left alone.
     */
    List<IndexCacheEntry> reload() throws IOException {
        Files.createDirectories(dir);
        Map<String, List<Path>> byPrefix = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.endsWith(RemoteIndexCache.TMP_FILE_SUFFIX)
                        || name.endsWith(LogFileUtils.DELETED_FILE_SUFFIX)) {
                    Files.deleteIfExists(file);
                } else if (INDEX_FILE.matcher(name).matches()) {
                    byPrefix.computeIfAbsent(name.substring(0, name.indexOf('.')), key -> new ArrayList<>())
                            .add(file);
                }
            }
        }
        List<IndexCacheEntry> loaded = new ArrayList<>();
        Map<IndexCacheEntry, Long> fetchedAt = new HashMap<>();
        Set<Uuid> seen = new HashSet<>();
        try {
            for (Map.Entry<String, List<Path>> group : byPrefix.entrySet()) {
                String prefix = group.getKey();
                long startOffset;
                Uuid segmentId;
                try {
                    startOffset = Long.parseLong(prefix.substring(0, prefix.indexOf('_')));
                    segmentId = Uuid.fromString(prefix.substring(prefix.indexOf('_') + 1));
                } catch (IllegalArgumentException notOurs) {
                    continue;
                }
                IndexFileSet files = IndexFileSet.of(dir, startOffset, segmentId);
                if (group.getValue().size() == files.all().size() && seen.add(segmentId)) {
                    try {
                        long modified =
                                Files.getLastModifiedTime(files.offsetIndex()).toMillis();
                        IndexCacheEntry entry = IndexCacheEntry.open(segmentId, startOffset, files, files);
                        loaded.add(entry);
                        fetchedAt.put(entry, modified);
                        continue;
                    } catch (CorruptIndexException | IOException e) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "Deleting remote index cache entry " + prefix + " left by an earlier run: "
                                        + e.getMessage());
                    }
                }
                for (Path file : group.getValue()) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | RuntimeException e) {
            loaded.forEach(IndexCacheEntry::unmap);
            throw e;
        }
        loaded.sort(Comparator.comparing(fetchedAt::get));
        return loaded;
    }
}
