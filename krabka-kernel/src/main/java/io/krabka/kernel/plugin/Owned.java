package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginMetrics;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the kernel opened for a plugin instance and closes after it, in order: the object store a store-backed
 * manager works over, the instance's metrics.
 *
 * @param parts what to close
 */
record Owned(List<AutoCloseable> parts) implements Closeable {

    /** Nothing owned. */
    static final Owned NOTHING = new Owned(List.of());

    Owned {
        parts = List.copyOf(parts);
    }

    /** These and {@code more}, closed after them. */
    Owned and(AutoCloseable more) {
        List<AutoCloseable> all = new ArrayList<>(parts);
        all.add(more);
        return new Owned(all);
    }

    /** These and the metrics of the instance, when they can be closed (removing them). */
    Owned andMetrics(PluginMetrics metrics) {
        return metrics instanceof AutoCloseable closeable ? and(closeable) : this;
    }

    /** Closes every part, even when one fails; the first failure is thrown, the others suppressed in it. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (AutoCloseable part : parts) {
            try {
                part.close();
            } catch (Exception e) {
                IOException wrapped = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                if (failure == null) {
                    failure = wrapped;
                } else {
                    failure.addSuppressed(wrapped);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
