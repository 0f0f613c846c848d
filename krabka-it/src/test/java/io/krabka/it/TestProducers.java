package io.krabka.it;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** kafka-clients producers of byte arrays for the workloads: idempotent, acks=all, and patient with a slow broker. */
final class TestProducers {

    private TestProducers() {}

    /**
     * A producer to {@code bootstrapServers} with the workloads' defaults, overridden by {@code extra}.
     */
    static Producer<byte[], byte[]> create(String bootstrapServers, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 16384,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000));
        config.putAll(extra);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
