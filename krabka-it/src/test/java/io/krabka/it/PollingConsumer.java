package io.krabka.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Java consumer of a classic group polling on its own thread, as an application's does: it counts the
 * revocations and assignments its rebalance listener sees and keeps its generation and assignment for the test's
 * thread to read (a consumer is not shared between threads). Closing it closes the consumer: a static member stays in
 * the group, as KIP-345 has it.
 */
final class PollingConsumer implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(50);

    private final Thread thread;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicInteger revocations = new AtomicInteger();
    private final AtomicInteger generation = new AtomicInteger(-1);
    private final AtomicReference<Set<String>> assignment = new AtomicReference<>(Set.of());
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private PollingConsumer(Map<String, Object> settings, String topic, CountDownLatch start) {
        Properties props = new Properties();
        props.putAll(settings);
        this.thread = Thread.ofPlatform()
                .name("polling-consumer-" + settings.get(ConsumerConfig.GROUP_ID_CONFIG))
                .start(() -> run(props, topic, start));
    }

    /**
     * A consumer of {@code topic} in {@code group}, static when {@code instanceId} is not null, polling at once.
     */
    static PollingConsumer start(String bootstrap, String group, String topic, String instanceId) {
        return start(bootstrap, group, topic, instanceId, new CountDownLatch(0));
    }

    /** As {@link #start(String, String, String, String)}, subscribing once {@code start} opens. */
    static PollingConsumer start(
            String bootstrap, String group, String topic, String instanceId, CountDownLatch start) {
        Map<String, Object> settings = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                group,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName()));
        if (instanceId != null) {
            settings.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        return new PollingConsumer(settings, topic, start);
    }

    private void run(Properties props, String topic, CountDownLatch start) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            // The topic's metadata first, so that consumers started together reach the group together.
            consumer.partitionsFor(topic);
            start.await();
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        revocations.incrementAndGet();
                    }
                }

                @Override
                public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {
                    // The assignment is read after the poll, with the generation it came with.
                }
            });
            while (!stop.await(0, TimeUnit.MILLISECONDS)) {
                consumer.poll(POLL);
                Set<String> now = new TreeSet<>();
                consumer.assignment().forEach(tp -> now.add(tp.toString()));
                assignment.set(Set.copyOf(now));
                generation.set(consumer.groupMetadata().generationId());
            }
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            closed.countDown();
        }
    }

    /** The non-empty revocations its listener has seen: each is a rebalance that took its partitions. */
    int revocations() {
        return revocations.get();
    }

    /** The generation of its last poll; -1 before it joined. */
    int generation() {
        return generation.get();
    }

    /** Its partitions as of its last poll, {@code topic-partition}. */
    Set<String> assignment() {
        return assignment.get();
    }

    /** Waits until it has partitions; fails with what stopped its thread, if something did. */
    Set<String> awaitAssignment(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (assignment.get().isEmpty()) {
            if (failure.get() != null) {
                throw new IllegalStateException("the consumer failed", failure.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no assignment within " + timeout);
            }
            Thread.sleep(20);
        }
        return assignment.get();
    }

    /**
     * Stops polling and closes the consumer (a static member does not leave its group); an interrupted wait keeps
     * the interrupt.
     */
    @Override
    public void close() {
        stop.countDown();
        try {
            if (!closed.await(1, TimeUnit.MINUTES)) {
                thread.interrupt();
                throw new IllegalStateException("the consumer did not close within a minute");
            }
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
        }
    }
}
