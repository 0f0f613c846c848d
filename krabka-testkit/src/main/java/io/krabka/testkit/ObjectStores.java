package io.krabka.testkit;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.PluginConfig;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** Opens object stores in tests as the kernel does: a provider found by name, settings checked, access checked. */
public final class ObjectStores {

    private ObjectStores() {}

    /**
     * The store of the provider named {@code name} on the class or module path, configured and checked.
     *
     * @throws IllegalArgumentException if no provider has that name
     * @throws RemoteStorageException   if the store's access check fails
     */
    public static ObjectStore open(String name, Map<String, ?> settings) throws RemoteStorageException {
        List<ObjectStoreProvider> found = ServiceLoader.load(ObjectStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name))
                .toList();
        if (found.size() != 1) {
            throw new IllegalArgumentException(
                    found.size() + " object-store providers named '" + name + "' on the path");
        }
        ObjectStoreProvider provider = found.getFirst();
        ObjectStore store = provider.create();
        store.configure(PluginConfig.parse(provider.configKeys(), settings).values());
        store.checkAccess();
        return store;
    }
}
