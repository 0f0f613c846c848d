package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;

/** The ApiVersions table made from the handlers registered, judged by Kafka's own broker table. */
class ApiVersionsTableTest {

    private record Handler(ApiKeys apiKey, short oldestVersion, short latestVersion) implements ApiHandler {
        Handler(ApiKeys apiKey) {
            this(apiKey, apiKey.oldestVersion(), apiKey.latestVersion(false));
        }

        @Override
        public CompletableFuture<Response> handle(Request request) {
            throw new UnsupportedOperationException("never called here");
        }
    }

    @Test
    void handlersOfEveryBrokerApiAdvertiseWhatKafkaAdvertises() {
        ApiVersions kafka =
                new ApiVersions(ApiVersionsResponse.filterApis(ApiMessageType.ListenerType.BROKER, false, false));
        List<ApiHandler> handlers = new ArrayList<>();
        for (ApiVersion api : kafka.apis) {
            if (api.apiKey() != ApiKeys.API_VERSIONS.id) {
                handlers.add(new Handler(ApiKeys.forId(api.apiKey())));
            }
        }
        assertEquals(
                Set.copyOf(kafka.apis), Set.copyOf(ApiVersionsTable.of(handlers).toApiVersions()));
    }

    private record ApiVersions(List<ApiVersion> apis) {
        ApiVersions(Iterable<ApiVersion> apis) {
            this(toList(apis));
        }

        private static List<ApiVersion> toList(Iterable<ApiVersion> apis) {
            List<ApiVersion> list = new ArrayList<>();
            apis.forEach(list::add);
            return list;
        }
    }

    @Test
    void onlyApiVersionsIsAdvertisedWithoutHandlers() {
        ApiVersionsTable table = ApiVersionsTable.of(List.of());
        assertEquals(
                List.of(new ApiVersion()
                        .setApiKey(ApiKeys.API_VERSIONS.id)
                        .setMinVersion((short) 0)
                        .setMaxVersion(ApiKeys.API_VERSIONS.latestVersion())),
                List.copyOf(table.toApiVersions()));
        assertTrue(table.isEnabled(ApiKeys.API_VERSIONS, (short) 99), "any ApiVersions version is answered");
        assertFalse(table.isEnabled(ApiKeys.METADATA, (short) 12));
    }

    @Test
    void produceIsAdvertisedFromZeroButEnabledFromKafkasOldest() {
        ApiVersionsTable table = ApiVersionsTable.of(List.of(new Handler(ApiKeys.PRODUCE, (short) 3, (short) 12)));
        ApiVersion produce = table.toApiVersions().find(ApiKeys.PRODUCE.id);
        assertEquals(0, produce.minVersion());
        assertEquals(12, produce.maxVersion());
        assertFalse(table.isEnabled(ApiKeys.PRODUCE, (short) 2));
        assertTrue(table.isEnabled(ApiKeys.PRODUCE, (short) 3));
        assertTrue(table.isEnabled(ApiKeys.PRODUCE, (short) 12));
        assertFalse(table.isEnabled(ApiKeys.PRODUCE, (short) 13), "capped by its handler");
    }

    @Test
    void versionsOutsideKafkasRangeAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ApiVersionsTable.of(List.of(new Handler(ApiKeys.FETCH, (short) 3, (short) 18))));
        assertThrows(
                IllegalArgumentException.class,
                () -> ApiVersionsTable.of(List.of(new Handler(ApiKeys.FETCH, (short) 4, (short) 19))));
        assertThrows(
                IllegalArgumentException.class,
                () -> ApiVersionsTable.of(List.of(new Handler(ApiKeys.FETCH, (short) 12, (short) 11))));
        assertThrows(
                IllegalArgumentException.class,
                () -> ApiVersionsTable.of(List.of(new Handler(ApiKeys.LEADER_AND_ISR, (short) 0, (short) 0))));
    }

    @Test
    void aDispatcherRefusesTwoHandlersOfOneApiAndAnApiVersionsHandlerOfAnotherApi() {
        assertThrows(
                IllegalArgumentException.class,
                () -> Servers.dispatcher(new Handler(ApiKeys.METADATA), new Handler(ApiKeys.METADATA)));
        assertThrows(
                IllegalArgumentException.class,
                () -> RequestDispatcher.create(List.of(), table -> new Handler(ApiKeys.METADATA)));
        assertThrows(IllegalArgumentException.class, () -> Servers.dispatcher(new Handler(ApiKeys.API_VERSIONS)));
    }
}
