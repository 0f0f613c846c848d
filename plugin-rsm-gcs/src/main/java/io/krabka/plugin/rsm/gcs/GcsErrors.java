package io.krabka.plugin.rsm.gcs;

import com.google.cloud.BaseServiceException;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;

/** Turns the client's failures into the tier's typed errors, with one-line messages that name what failed. */
final class GcsErrors {
    private GcsErrors() {}

    /** The storage error for a failed operation: {@link RemoteResourceNotFoundException} for a missing object. */
    static RemoteStorageException of(String operation, Throwable failure) {
        BaseServiceException service = serviceException(failure);
        String message = "GCS " + operation + " failed: " + describe(failure);
        return service != null && service.getCode() == 404
                ? new RemoteResourceNotFoundException(message, failure)
                : new RemoteStorageException(message, failure);
    }

    /** Whether the failure is the service's 404. */
    static boolean notFound(Throwable failure) {
        BaseServiceException service = serviceException(failure);
        return service != null && service.getCode() == 404;
    }

    /** Whether the failure is the service's 412: a precondition such as {@code ifGenerationMatch=0} did not hold. */
    static boolean preconditionFailed(Throwable failure) {
        BaseServiceException service = serviceException(failure);
        return service != null && service.getCode() == 412;
    }

    /** {@code HTTP 503 backendError: message} for the service's answers, else the exception's class and message. */
    static String describe(Throwable failure) {
        BaseServiceException service = serviceException(failure);
        String text;
        if (service != null && service.getCode() > 0) {
            text = "HTTP " + service.getCode() + (service.getReason() == null ? "" : " " + service.getReason()) + ": "
                    + service.getMessage();
        } else {
            Throwable root = failure;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            text = root.getClass().getSimpleName() + ": " + root.getMessage();
        }
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static BaseServiceException serviceException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BaseServiceException service) {
                return service;
            }
        }
        return null;
    }
}
