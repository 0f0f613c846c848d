package io.krabka.bench;

import io.krabka.archive.keys.KeyFileException;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.plugin.worm.WormRemoteStorageManagerProvider;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RecordingPluginMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code worm} manager as the kernel creates it, through its provider, over an object store ({@code local} unless
 * said otherwise): every manifest signed with a new Ed25519 key, retention unenforced (a directory cannot enforce it,
 * nor a bucket without a locked retention), the broker's limit on custom metadata raised for the chain receipt. No metadata manager stands behind it: the first copy of a partition
 * starts a fresh chain epoch and the manager goes on from its own seals, as it does between restarts.
 */
final class WormArchive implements AutoCloseable {
    private static final String KEY_ID = "bench";

    private final RemoteStorageManager manager;
    private final TrustedKeys trustedKeys;

    /**
     * Creates and configures the manager over the {@code local} object store {@code store}, writing its signing key to
     * {@code keyFile}.
     *
     * @throws IOException if the key file cannot be written or read back
     */
    WormArchive(ObjectStore store, Path keyFile) throws IOException {
        this(store, "local", keyFile);
    }

    /**
     * Creates and configures the manager over {@code store}, opened from the object-store plugin named
     * {@code storeName}, writing its signing key to {@code keyFile}.
     *
     * @throws IOException if the key file cannot be written or read back
     */
    WormArchive(ObjectStore store, String storeName, Path keyFile) throws IOException {
        byte[] pkcs8;
        try {
            pkcs8 = KeyPairGenerator.getInstance("Ed25519")
                    .generateKeyPair()
                    .getPrivate()
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has Ed25519", e);
        }
        Files.write(keyFile, pkcs8);
        try {
            trustedKeys = TrustedKeys.of(
                    Map.of(KEY_ID, SigningKey.readPkcs8(keyFile, KEY_ID).verificationKey()));
        } catch (KeyFileException e) {
            throw new IOException(e.getMessage(), e);
        }
        manager = new WormRemoteStorageManagerProvider().create(new Context(store, storeName));
        manager.configure(Map.of(
                "store",
                storeName,
                "allow.unenforced.retention",
                "true",
                "signing.key.path",
                keyFile.toString(),
                "signing.key.id",
                KEY_ID,
                "remote.log.metadata.custom.metadata.max.bytes",
                "1024"));
    }

    /** The configured manager. */
    RemoteStorageManager manager() {
        return manager;
    }

    /** The key the manifests are signed with, trusted under its key id: what {@code krabka verify} is given. */
    TrustedKeys trustedKeys() {
        return trustedKeys;
    }

    /** Closes the manager; the store stays open, as the kernel closes it after the manager. */
    @Override
    public void close() throws IOException {
        manager.close();
    }

    /** What the kernel hands the manager: the store, no segments in the metadata manager, metrics nobody reads. */
    private record Context(ObjectStore objectStore, String objectStoreName) implements RemoteStorageContext {

        @Override
        public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition) {
            return Collections.emptyIterator();
        }

        @Override
        public PluginMetrics metrics() {
            return new RecordingPluginMetrics();
        }
    }
}
