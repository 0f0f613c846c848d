package io.krabka.bench;

import io.krabka.kernel.broker.Broker;
import io.krabka.kernel.broker.BrokerConfig;
import io.krabka.kernel.broker.KrabkaServices;
import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.testservers.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Krabka's own price of TLS: one broker, in this JVM, with a PLAINTEXT and an SSL listener (the JDK's engine through
 * Netty's SslHandler), the same producer and consumer settings against each in turn, 100-byte and 1 KiB records, the
 * order alternating between rounds. Prints the median records/s of each listener and the ratio SSL/PLAINTEXT.
 *
 * <pre>
 * krabka-benchmarks/tls-perf                       3 rounds of 500,000 records per row
 * krabka-benchmarks/tls-perf --rounds 5 --records 1000000
 * </pre>
 */
public final class TlsThroughput {

    private static final String PASSWORD = "bench-secret";

    private TlsThroughput() {}

    public static void main(String[] args) throws Exception {
        int rounds = 3;
        int records = 500_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--records" -> records = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path work = Files.createDirectories(Path.of("target/tls-perf"));
        TestCertificates certificates = TestCertificates.create(work.resolve("ca-" + System.nanoTime()), PASSWORD);
        Path keystore = certificates.keystore("broker", "CN=localhost");
        Path data = work.resolve("data-" + System.nanoTime());
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(data),
                        data,
                        ClusterId.random(),
                        1,
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        Map<String, String> props = new HashMap<>();
        props.put("node.id", "1");
        props.put("process.roles", "broker,controller");
        props.put("listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,CONTROLLER://127.0.0.1:9093");
        props.put("log.dirs", data.toString());
        props.put("krabka.health.listen.addr", "none");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(certificates.sslSettings(keystore));
        try (Broker broker = Broker.start(BrokerConfig.fromProps(props), new KrabkaServices())) {
            Map<String, Object> plaintext = Map.of(
                    CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + broker.listenAddresses().get("PLAINTEXT").getPort());
            Map<String, Object> ssl = Map.of(
                    CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + broker.listenAddresses().get("SSL").getPort(),
                    CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                    "SSL",
                    SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG,
                    "PKCS12",
                    SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                    certificates.truststore().toString(),
                    SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG,
                    PASSWORD);
            System.out.println("| row | produce records/s SSL vs PLAINTEXT | consume records/s SSL vs PLAINTEXT |");
            System.out.println("|---|---|---|");
            for (int size : new int[] {100, 1024}) {
                // Per round: SSL and PLAINTEXT produce, SSL and PLAINTEXT consume.
                List<double[]> results = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    double[] result = new double[4];
                    for (int side = 0; side < 2; side++) {
                        boolean tls = (round + side) % 2 == 0;
                        String topic = "perf-" + size + "-" + round + "-" + (tls ? "ssl" : "plaintext");
                        Map<String, Object> client = tls ? ssl : plaintext;
                        result[tls ? 0 : 1] = produce(client, topic, records, size);
                        result[tls ? 2 : 3] = consume(client, topic, records);
                    }
                    results.add(result);
                }
                System.out.printf(
                        "| %s, acks=1 | %s | %s |%n",
                        size == 100 ? "100 B" : "1 KiB", row(results, 0, 1), row(results, 2, 3));
            }
        }
    }

    private static String row(List<double[]> results, int tls, int plain) {
        double a = median(results.stream().map(r -> r[tls]).toList());
        double b = median(results.stream().map(r -> r[plain]).toList());
        return String.format("%,.0f vs %,.0f = %.2f", a, b, a / b);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double produce(Map<String, Object> client, String topic, int records, int size) throws Exception {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
        }
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ACKS_CONFIG, "1");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        byte[] value = new byte[size];
        AtomicReference<Exception> failure = new AtomicReference<>();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, value), (metadata, e) -> {
                    if (e != null) {
                        failure.set(e);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return records / ((System.nanoTime() - start) / 1e9);
    }

    private static double consume(Map<String, Object> client, String topic, int records) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        long start = System.nanoTime();
        long read = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < 6; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (read < records && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(500)).count();
            }
        }
        if (read < records) {
            throw new IllegalStateException("read " + read + " of " + records + " records of " + topic);
        }
        return records / ((System.nanoTime() - start) / 1e9);
    }
}
