package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.network.ApiHandler;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/**
 * What a {@link Broker} runs between its log directories and its listener: the controller and the request
 * handlers. The broker calls {@link #startBeforeLogs}, loads the logs, calls {@link #handlers}, then listens; it
 * closes the services after the listener stopped and before the logs shut down.
 */
public interface BrokerServices extends AutoCloseable {

    /**
     * Starts what must run before the logs load (the controller, replaying the metadata log).
     *
     * @return the settings of each topic by name, for the logs found on disk
     */
    Function<String, LogConfig> startBeforeLogs(BrokerContext context) throws IOException;

    /** The handlers of every API but ApiVersions (which the broker adds), over the loaded logs. */
    List<ApiHandler> handlers(BrokerContext context, LogManager logManager) throws IOException;

    /** The feature levels ApiVersions reports, read at each request. */
    ApiFeatures features();

    /** Stops the services. */
    @Override
    void close() throws IOException;
}
