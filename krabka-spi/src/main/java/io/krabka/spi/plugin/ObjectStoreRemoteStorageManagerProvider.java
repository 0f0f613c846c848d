package io.krabka.spi.plugin;

import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageManager;

/**
 * Declares a {@link RemoteStorageManager} that works over an object store the kernel opens for it, such as the
 * write-once archive {@code worm}. Its setting {@value #STORE_CONFIG} names the object-store plugin
 * ({@code s3}, {@code gcs}, {@code local}, or a third party's); the settings under {@value #STORE_CONFIG_PREFIX}
 * are that plugin's own, checked against its keys. So {@code rsm.config.store=s3} with
 * {@code rsm.config.store.bucket=archive} puts the manager on that bucket, and the manager never imports the
 * store's plugin or its client library.
 */
public interface ObjectStoreRemoteStorageManagerProvider extends RemoteStorageManagerProvider {

    /** The setting that names the object-store plugin; a provider declares it among its {@link #configKeys()}. */
    String STORE_CONFIG = "store";

    /** The prefix of the store's own settings; the kernel takes them out before the manager's are checked. */
    String STORE_CONFIG_PREFIX = STORE_CONFIG + ".";

    /**
     * A new, not yet configured instance over what the kernel hands it: the opened and checked store, a read-only
     * view of the remote segments' metadata, and metrics.
     *
     * @param context what the kernel hands the manager
     * @return the instance
     */
    RemoteStorageManager create(RemoteStorageContext context);

    /**
     * Refused: such a manager cannot exist without its store.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    default RemoteStorageManager create() {
        throw new UnsupportedOperationException("the " + name() + " remote storage manager works over an object store: "
                + "the kernel creates it with create(RemoteStorageContext)");
    }
}
