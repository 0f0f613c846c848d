/**
 * The object-store contract: one bucket or directory as Krabka writes, reads and lists it, and the protection the
 * bucket enforces. The {@code s3}, {@code gcs} and {@code local} plugins each provide a store
 * ({@link io.krabka.spi.plugin.ObjectStoreProvider}); the write-once archive, {@code krabka verify} and
 * {@code krabka restore} work over any store.
 */
package io.krabka.spi.objectstore;
