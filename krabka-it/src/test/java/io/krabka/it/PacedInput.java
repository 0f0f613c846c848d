package io.krabka.it;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The input of an application under test, written to a topic by a background thread a few records at a time until
 * stopped: it keeps arriving while the application runs, is killed, starts again, and while the broker restarts.
 * Unlike {@link ContinuousSends}, which abandons what is in flight, every record written is acknowledged (an
 * idempotent producer retries across a broker restart, without duplicates), so the input is exactly records 0 to
 * {@link #stop()}{@code - 1}.
 */
final class PacedInput implements AutoCloseable {
    private static final int BATCH = 10;
    private static final long PAUSE_MS = 50;

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final IntFunction<String> value;
    private final int limit;
    private final Thread writer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean stopped;
    private final AtomicInteger written = new AtomicInteger();

    private PacedInput(String bootstrap, String topic, IntFunction<String> value, int limit) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
        this.topic = topic;
        this.value = value;
        this.limit = limit;
        this.writer = Thread.ofPlatform().name("paced-input").daemon().unstarted(this::write);
    }

    /**
     * Starts writing record {@code i}'s value {@code value.apply(i)} (without a key) to {@code topic}, from 0 up, at
     * most {@code limit} records.
     */
    static PacedInput start(String bootstrap, String topic, IntFunction<String> value, int limit) {
        PacedInput input = new PacedInput(bootstrap, topic, value, limit);
        input.writer.start();
        return input;
    }

    /** How many records have been handed to the producer so far. */
    int written() {
        return written.get();
    }

    /**
     * Stops writing and waits until every record written is acknowledged.
     *
     * @return how many records were written: records 0 to this, exclusive
     * @throws IllegalStateException if a record could not be written
     */
    int stop() throws InterruptedException {
        stopped = true;
        writer.join();
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("writing the input failed", failure.get());
        }
        return written.get();
    }

    @Override
    public void close() {
        stopped = true;
        producer.close();
    }

    // The pause paces the input; it measures nothing.
    private void write() {
        try {
            while (!stopped && written.get() < limit) {
                for (int i = 0; i < BATCH && written.get() < limit; i++) {
                    producer.send(new ProducerRecord<>(topic, value.apply(written.get())), (metadata, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    written.incrementAndGet();
                }
                Thread.sleep(PAUSE_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }
}
