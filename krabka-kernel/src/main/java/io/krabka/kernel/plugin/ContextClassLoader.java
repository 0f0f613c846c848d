package io.krabka.kernel.plugin;

/**
 * Runs plugin code with the plugin's class loader as the thread context class loader, as libraries inside a
 * plugin (JAXB, Jackson modules, SDK service lookups) find their own classes through it.
 */
final class ContextClassLoader {

    /** A call into a plugin that may throw the checked exception its interface declares. */
    @FunctionalInterface
    interface PluginCall<T, E extends Exception> {
        T call() throws E;
    }

    /** A call into a plugin that returns nothing. */
    @FunctionalInterface
    interface PluginRun<E extends Exception> {
        void run() throws E;
    }

    private ContextClassLoader() {}

    /** The result of {@code call}, run with {@code loader} as the context class loader, restored afterwards. */
    static <T, E extends Exception> T call(ClassLoader loader, PluginCall<T, E> call) throws E {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Runs {@code run} with {@code loader} as the context class loader, restored afterwards. */
    static <E extends Exception> void run(ClassLoader loader, PluginRun<E> run) throws E {
        ContextClassLoader.<Void, E>call(loader, () -> {
            run.run();
            return null;
        });
    }
}
