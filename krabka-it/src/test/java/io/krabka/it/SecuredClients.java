package io.krabka.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What Kafka's Java clients answer, as text a side-by-side test compares: {@code ok}, an offset, a list, or the
 * exception's type and message. Every call is bounded by a client timeout, never by a sleep.
 */
final class SecuredClients {
    /** How long a call may take on a connection the broker serves. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

    /** How long a client keeps retrying a connection the broker drops: its answer is then a TimeoutException. */
    static final Duration REFUSED_TIMEOUT = Duration.ofSeconds(5);

    private SecuredClients() {}

    /** An admin client of {@code client}'s identity, each call bounded by {@code timeout}. */
    static Admin admin(Map<String, Object> client, Duration timeout) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return Admin.create(config);
    }

    /** {@code ok} when {@code client} connects, authenticates and describes the cluster; else the error. */
    static String connect(Map<String, Object> client, Duration timeout) {
        try (Admin admin = admin(client, timeout)) {
            return answer(admin.describeCluster().nodes());
        }
    }

    /** {@code ok} when {@code future} completes; else its error. */
    static String answer(KafkaFuture<?> future) {
        return answer(future, value -> "ok");
    }

    /** {@code future}'s value as {@code render} words it; else its error. */
    static <T> String answer(KafkaFuture<T> future, Function<T, String> render) {
        try {
            return render.apply(future.get(CALL_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            return error(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("a client call outlived its own timeout", e);
        }
    }

    /** The topics {@code client} lists: those it may describe. */
    static String topics(Map<String, Object> client) {
        try (Admin admin = admin(client, CALL_TIMEOUT)) {
            return String.valueOf(new TreeSet<>(admin.listTopics().names().get()));
        } catch (ExecutionException e) {
            return error(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends one record to partition 0 of {@code topic} and answers {@code offset N}; {@code idempotent} chooses the
     * producer's default (idempotent, which first asks for a producer id) or a plain one, whose only refusal can be
     * the topic's.
     */
    static String produce(Map<String, Object> client, String topic, boolean idempotent) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotent);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        // The delivery timeout must cover linger.ms and one request's timeout.
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis() / 2);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            return "offset "
                    + producer.send(new ProducerRecord<>(topic, 0, "k", "to " + topic))
                            .get()
                            .offset();
        } catch (ExecutionException e) {
            return error(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            return error(e);
        }
    }

    /**
     * Reads partition 0 of {@code topic} from its start until {@code expected} records came, in {@code group}
     * (subscribed) or, for a null group, without one (assigned); answers the values read or the error.
     */
    static String consume(Map<String, Object> client, String topic, String group, int expected) {
        Map<String, Object> config = new HashMap<>(client);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        List<String> values = new java.util.ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            if (group != null) {
                consumer.subscribe(List.of(topic));
            } else {
                consumer.assign(List.of(partition));
                consumer.seekToBeginning(List.of(partition));
            }
            long deadline = System.nanoTime() + CALL_TIMEOUT.toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
            return values.size() + " records " + values;
        } catch (RuntimeException e) {
            return error(e);
        }
    }

    /**
     * An error as the test compares it: the exception's type and message, but only the type where the message is
     * the client's own wording of a connection it lost or a handshake the JDK failed, or Kafka's rendering of its
     * own request object ({@code Request Request(processor=2, connectionId=..., session=...@35e2b386, ...) needs
     * ALTER permission.}), which differs from run to run.
     */
    static String error(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        String message = String.valueOf(cause.getMessage());
        if (cause instanceof TimeoutException
                || cause instanceof SslAuthenticationException
                || message.startsWith("Request Request(")) {
            return cause.getClass().getSimpleName();
        }
        return cause.getClass().getSimpleName() + ": " + message;
    }

    /** Sorted non-empty lines of a tool's output, stripped: the order a broker lists things in is not an answer. */
    static String sortedLines(String output) {
        return output.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .sorted()
                .collect(Collectors.joining(" | "));
    }
}
