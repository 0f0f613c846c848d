package io.krabka.kernel.network;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * The handlers of a broker by API (SaslHandshake and SaslAuthenticate answered by {@link IllegalSaslStateHandler}
 * where none is given), and the ApiVersions table they make. A handler's failure becomes the request's
 * error response, as in Kafka's {@code RequestHandlerHelper.handleError}.
 */
public final class RequestDispatcher {

    private static final System.Logger LOG = System.getLogger(RequestDispatcher.class.getName());

    private final Map<ApiKeys, ApiHandler> handlers = new EnumMap<>(ApiKeys.class);
    private final ApiVersionsTable apiVersions;

    private RequestDispatcher(
            Collection<? extends ApiHandler> handlers,
            Function<ApiVersionsTable, ? extends ApiHandler> apiVersionsHandler) {
        List<ApiHandler> all = new java.util.ArrayList<>(handlers);
        for (ApiHandler sasl : IllegalSaslStateHandler.both()) {
            if (handlers.stream().noneMatch(handler -> handler.apiKey() == sasl.apiKey())) {
                all.add(sasl);
            }
        }
        this.apiVersions = ApiVersionsTable.of(all);
        ApiHandler versions = apiVersionsHandler.apply(apiVersions);
        if (versions.apiKey() != ApiKeys.API_VERSIONS) {
            throw new IllegalArgumentException("the ApiVersions handler answers " + versions.apiKey());
        }
        for (ApiHandler handler : all) {
            register(handler);
        }
        register(versions);
    }

    /**
     * A dispatcher for these handlers and the ApiVersions handler made from their table.
     *
     * @param handlers           the handlers of every API but ApiVersions
     * @param apiVersionsHandler makes the ApiVersions handler from the table of all handlers
     * @throws IllegalArgumentException if two handlers answer the same API or a handler's versions are invalid
     */
    public static RequestDispatcher create(
            Collection<? extends ApiHandler> handlers,
            Function<ApiVersionsTable, ? extends ApiHandler> apiVersionsHandler) {
        return new RequestDispatcher(List.copyOf(handlers), apiVersionsHandler);
    }

    private void register(ApiHandler handler) {
        if (handlers.putIfAbsent(handler.apiKey(), handler) != null) {
            throw new IllegalArgumentException("two handlers of " + handler.apiKey());
        }
    }

    /** The enabled APIs and versions. */
    public ApiVersionsTable apiVersions() {
        return apiVersions;
    }

    /**
     * Hands a request of an enabled API to its handler; never throws and never fails the future: a failure
     * becomes the request's error response, or a closed connection where it has none.
     */
    CompletableFuture<Response> dispatch(Request request) {
        ApiHandler handler = handlers.get(request.apiKey());
        CompletableFuture<Response> response;
        try {
            response = Objects.requireNonNull(handler.handle(request), "the handler returned no future");
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.handle((r, e) -> {
            if (e != null) {
                return errorResponse(request, unwrap(e));
            }
            return r != null ? r : errorResponse(request, new IllegalStateException("the handler answered null"));
        });
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    private static Response errorResponse(Request request, Throwable error) {
        // An error Kafka has a code for is an answer; any other is the broker's fault, which the client sees only
        // as UNKNOWN_SERVER_ERROR: logged as Kafka's handleError logs it.
        boolean unexpected = Errors.forException(error) == Errors.UNKNOWN_SERVER_ERROR;
        LOG.log(
                unexpected ? System.Logger.Level.ERROR : System.Logger.Level.DEBUG,
                () -> (unexpected ? "Unexpected error handling request " : "Error handling request ") + request.header()
                        + " from "
                        + request.connection().connectionId(),
                error);
        AbstractResponse response = request.body().getErrorResponse(error);
        return response == null
                ? Response.closeConnection("error without a response for " + request.header() + ": " + error)
                : Response.send(response.data());
    }
}
