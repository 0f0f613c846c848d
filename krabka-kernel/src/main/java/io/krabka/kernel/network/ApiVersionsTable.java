package io.krabka.kernel.network;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The APIs a broker enables, each with its version range: built from the handlers registered, so nothing is
 * advertised that is not handled. ApiVersions is always in it with Kafka 4.4's full range.
 */
public final class ApiVersionsTable {

    private final Map<ApiKeys, ApiVersion> enabled;

    private ApiVersionsTable(Map<ApiKeys, ApiVersion> enabled) {
        this.enabled = Collections.unmodifiableMap(enabled);
    }

    /**
     * The table of these handlers and ApiVersions.
     *
     * @throws IllegalArgumentException if a handler's range is empty or outside what kafka-clients can read
     */
    static ApiVersionsTable of(Iterable<? extends ApiHandler> handlers) {
        Map<ApiKeys, ApiVersion> enabled = new EnumMap<>(ApiKeys.class);
        enabled.put(
                ApiKeys.API_VERSIONS,
                range(
                        ApiKeys.API_VERSIONS,
                        ApiKeys.API_VERSIONS.oldestVersion(),
                        ApiKeys.API_VERSIONS.latestVersion(false)));
        for (ApiHandler handler : handlers) {
            ApiKeys key = handler.apiKey();
            short oldest = handler.oldestVersion();
            short latest = handler.latestVersion();
            if (!key.hasValidVersion()
                    || oldest > latest
                    || oldest < key.oldestVersion()
                    || latest > key.latestVersion()) {
                throw new IllegalArgumentException("handler of " + key + " declares versions " + oldest + "-" + latest
                        + ", outside " + key.oldestVersion() + "-" + key.latestVersion());
            }
            enabled.put(key, range(key, oldest, latest));
        }
        return new ApiVersionsTable(enabled);
    }

    private static ApiVersion range(ApiKeys key, short oldest, short latest) {
        return new ApiVersion().setApiKey(key.id).setMinVersion(oldest).setMaxVersion(latest);
    }

    /**
     * Whether a request of this API and version is enabled. Any ApiVersions version is: an unknown one is answered
     * with UNSUPPORTED_VERSION so that the client retries with one it shares with the broker.
     */
    public boolean isEnabled(ApiKeys apiKey, short version) {
        if (apiKey == ApiKeys.API_VERSIONS) {
            return true;
        }
        ApiVersion range = enabled.get(apiKey);
        return range != null && version >= range.minVersion() && version <= range.maxVersion();
    }

    /** The enabled APIs. */
    public Iterable<ApiKeys> apiKeys() {
        return enabled.keySet();
    }

    /**
     * The ApiKeys array of an ApiVersions response. Produce is advertised from version 0 although versions 0-2 are
     * rejected, as Kafka does (KAFKA-18659: librdkafka refuses a broker whose Produce starts above 0).
     */
    public ApiVersionCollection toApiVersions() {
        ApiVersionCollection apis = new ApiVersionCollection(enabled.size());
        for (ApiVersion range : enabled.values()) {
            ApiVersion advertised = range.duplicate();
            if (range.apiKey() == ApiKeys.PRODUCE.id) {
                advertised.setMinVersion(ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION);
            }
            apis.add(advertised);
        }
        return apis;
    }

    @Override
    public String toString() {
        return enabled.values().toString();
    }
}
