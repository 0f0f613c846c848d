package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.security.Authorizer;
import io.krabka.kernel.security.ScramCredentials;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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

    /**
     * Takes the partitions of {@code logDir}, which an I/O error took offline, out of service, and closes its logs
     * ({@link LogManager#handleLogDirFailure}); called by the broker's handler, once per directory.
     */
    void handleLogDirFailure(Path logDir);

    /**
     * The authorizer, once {@link #startBeforeLogs} has run: Krabka's {@link io.krabka.kernel.security.StandardAuthorizer}
     * over the metadata's ACLs when {@code authorizer.class.name} names Kafka's, empty when it is empty.
     */
    Optional<Authorizer> authorizer();

    /** The SCRAM credentials of the metadata, as SASL/SCRAM reads them, once {@link #startBeforeLogs} has run. */
    ScramCredentials scramCredentials();

    /** The feature levels ApiVersions reports, read at each request. */
    ApiFeatures features();

    /** Stops the services. */
    @Override
    void close() throws IOException;
}
