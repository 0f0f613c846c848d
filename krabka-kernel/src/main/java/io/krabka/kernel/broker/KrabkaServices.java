package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.network.ApiHandler;
import java.util.List;
import java.util.function.Function;

/**
 * The services {@code krabka broker} runs. So far the broker answers ApiVersions alone: every log found on disk
 * takes the broker's topic defaults, and no feature level is reported until the controller publishes them.
 */
public final class KrabkaServices implements BrokerServices {

    @Override
    public Function<String, LogConfig> startBeforeLogs(BrokerContext context) {
        LogConfig defaults = context.config().logConfigDefaults();
        return topic -> defaults;
    }

    @Override
    public List<ApiHandler> handlers(BrokerContext context, LogManager logManager) {
        return List.of();
    }

    @Override
    public ApiFeatures features() {
        return ApiFeatures.NONE;
    }

    @Override
    public void close() {
    }
}
