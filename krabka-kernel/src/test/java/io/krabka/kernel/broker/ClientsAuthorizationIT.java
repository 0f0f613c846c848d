package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's Java producer and consumer against a data plane whose handlers ask an authorizer: what they may not do
 * reaches them as Kafka's exceptions, what they may do works. The connection is PLAINTEXT: the principal is ANONYMOUS.
 */
class ClientsAuthorizationIT {

    private static final KafkaPrincipal ANONYMOUS = KafkaPrincipal.ANONYMOUS;

    private final TableAuthorizer authorizer = new TableAuthorizer();

    @RegisterExtension
    final DataPlane plane = DataPlane.perTestAuthorized("orders", 1, authorizer);

    @BeforeEach
    void secret() throws Exception {
        plane.createTopic("secret", 1, Map.of());
        authorizer.allow(ANONYMOUS, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders");
    }

    @Test
    void anIdempotentProducerWithWriteOnATopicWritesItAndIsRefusedTheOthers() throws Exception {
        authorizer
                .allow(ANONYMOUS, AclOperation.WRITE, ResourceType.TOPIC, "orders")
                .allow(ANONYMOUS, AclOperation.READ, ResourceType.TOPIC, "orders");
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>("orders", "k", "v")).get();
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("secret", "k", "v"))
                            .get());
            assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
        }
        try (KafkaConsumer<String, String> consumer = consumer()) {
            consumer.assign(List.of(new TopicPartition("orders", 0)));
            List<ConsumerRecord<String, String>> read = new ArrayList<>();
            // Not a measurement: the bound only keeps a broken fetch from hanging the build.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
            assertEquals("v", read.getFirst().value());
        }
        try (KafkaConsumer<String, String> consumer = consumer()) {
            consumer.assign(List.of(new TopicPartition("secret", 0)));
            assertThrows(TopicAuthorizationException.class, () -> consumer.poll(Duration.ofSeconds(10)));
        }
    }

    @Test
    void anIdempotentProducerWithoutAnyWriteIsRefusedItsProducerId() throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            // The send fails with the refusal, or, once the producer knows of it, at once with it as the cause.
            Throwable refused = assertThrows(
                    Exception.class,
                    () -> producer.send(new ProducerRecord<>("orders", "k", "v"))
                            .get());
            while (!(refused instanceof ClusterAuthorizationException) && refused.getCause() != null) {
                refused = refused.getCause();
            }
            assertInstanceOf(ClusterAuthorizationException.class, refused);
        }
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap(),
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                        ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000",
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000",
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000"),
                new StringSerializer(),
                new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer() {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new StringDeserializer(),
                new StringDeserializer());
    }
}
