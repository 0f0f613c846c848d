package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.metadata.ClientQuotaRecord;
import io.krabka.kernel.metadata.ClientQuotaRecord.EntityData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's Admin client over TCP describes the client quotas of a whole broker ({@link KrabkaServices}): none on a new
 * cluster; after a restart on a metadata log where a Kafka controller left ClientQuotaRecords, each entity with the
 * quotas left, by Kafka's filters (as {@code kafka-configs.sh --describe --entity-type users} asks).
 */
class DescribeClientQuotasIT {

    @RegisterExtension
    final InProcessBroker broker = InProcessBroker.perTest(Map.of());

    @Test
    void quotasAKafkaControllerLeftAreDescribedByKafkasFilters() throws Exception {
        ClientQuotaFilter dave =
                ClientQuotaFilter.containsOnly(List.of(ClientQuotaFilterComponent.ofEntity("user", "dave")));
        try (Admin admin = admin()) {
            assertEquals(
                    Map.of(),
                    admin.describeClientQuotas(ClientQuotaFilter.all())
                            .entities()
                            .get());
            assertEquals(Map.of(), admin.describeClientQuotas(dave).entities().get());
        }

        broker.restart(List.of(
                new ClientQuotaRecord(List.of(new EntityData("user", "dave")), "producer_byte_rate", 1024, false),
                new ClientQuotaRecord(List.of(new EntityData("user", "dave")), "consumer_byte_rate", 4096, false),
                new ClientQuotaRecord(List.of(new EntityData("user", "dave")), "consumer_byte_rate", 0, true),
                new ClientQuotaRecord(List.of(new EntityData("user", null)), "consumer_byte_rate", 2048, false),
                new ClientQuotaRecord(
                        List.of(new EntityData("client-id", "app"), new EntityData("user", "dave")),
                        "request_percentage",
                        50,
                        false)));
        ClientQuotaEntity daveEntity = DescribeClientQuotasHandlerTest.entity("user", "dave");
        ClientQuotaEntity defaultUser = DescribeClientQuotasHandlerTest.entity("user", null);
        ClientQuotaEntity daveApp = DescribeClientQuotasHandlerTest.entity("user", "dave", "client-id", "app");
        try (Admin admin = admin()) {
            assertEquals(
                    Map.of(
                            daveEntity, Map.of("producer_byte_rate", 1024.0),
                            defaultUser, Map.of("consumer_byte_rate", 2048.0),
                            daveApp, Map.of("request_percentage", 50.0)),
                    admin.describeClientQuotas(ClientQuotaFilter.all())
                            .entities()
                            .get());
            assertEquals(
                    Map.of(daveEntity, Map.of("producer_byte_rate", 1024.0)),
                    admin.describeClientQuotas(dave).entities().get());
            assertEquals(
                    Map.of(
                            daveEntity,
                            Map.of("producer_byte_rate", 1024.0),
                            daveApp,
                            Map.of("request_percentage", 50.0)),
                    admin.describeClientQuotas(ClientQuotaFilter.contains(
                                    List.of(ClientQuotaFilterComponent.ofEntity("user", "dave"))))
                            .entities()
                            .get());
            assertEquals(
                    Map.of(defaultUser, Map.of("consumer_byte_rate", 2048.0)),
                    admin.describeClientQuotas(ClientQuotaFilter.containsOnly(
                                    List.of(ClientQuotaFilterComponent.ofDefaultEntity("user"))))
                            .entities()
                            .get());
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeClientQuotas(ClientQuotaFilter.contains(List.of(
                                    ClientQuotaFilterComponent.ofEntityType("ip"),
                                    ClientQuotaFilterComponent.ofEntity("user", "dave"))))
                            .entities()
                            .get());
            assertInstanceOf(InvalidRequestException.class, refused.getCause());
            assertEquals(
                    "Invalid entity filter component combination. IP filter component should not be used with user or"
                            + " clientId filter component.",
                    refused.getCause().getMessage());
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrap(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000));
    }
}
