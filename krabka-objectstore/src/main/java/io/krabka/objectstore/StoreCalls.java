package io.krabka.objectstore;

import io.krabka.spi.storage.RemoteStorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Calls to an object store made together: a segment's small objects go at once, one round trip rather than five. */
public final class StoreCalls {

    /** One call to a store. */
    @FunctionalInterface
    public interface Call<T> {
        /** Makes the call. */
        T run() throws RemoteStorageException;
    }

    private StoreCalls() {}

    /**
     * Runs the calls at once, each on a virtual thread, and waits for all; a client's unchecked failure counts as a
     * storage error. The first failure is thrown with the others suppressed.
     *
     * @param what what the calls do, for messages ("uploading a segment's indexes")
     * @return the results, in the calls' order
     * @throws RemoteStorageException the first failure, or an interrupt (kept)
     */
    public static <T> List<T> allAtOnce(List<Call<T>> calls, String what) throws RemoteStorageException {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> running = new ArrayList<>();
            for (Call<T> call : calls) {
                running.add(threads.submit(() -> guarded(call)));
            }
            List<T> results = new ArrayList<>();
            RemoteStorageException failure = null;
            for (Future<T> future : running) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    RemoteStorageException cause = e.getCause() instanceof RemoteStorageException r
                            ? r
                            : new RemoteStorageException(what + " failed: " + e.getCause(), e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RemoteStorageException("interrupted while " + what, e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return results;
        }
    }

    /** A call whose unchecked failures (a bug in a client library) reach the caller as storage errors too. */
    public static <T> T guarded(Call<T> call) throws RemoteStorageException {
        try {
            return call.run();
        } catch (RuntimeException e) {
            throw new RemoteStorageException("object store call failed: " + e, e);
        }
    }
}
