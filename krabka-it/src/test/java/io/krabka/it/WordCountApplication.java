package io.krabka.it;

import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A Kafka Streams word count with {@code processing.guarantee=exactly_once_v2}, run by {@link StreamsExactlyOnceIT}
 * in a child JVM: lines from {@value #INPUT} split into words, re-keyed by word (a repartition topic), counted in a
 * persistent (RocksDB) store with its changelog, each new count written to {@value #OUTPUT}. The record cache is off,
 * so every word read gives one count: the counts of a word, read_committed, are exactly 1, 2, ... N.
 *
 * <p>Arguments: the bootstrap servers and the state directory.
 */
public final class WordCountApplication {
    static final String APPLICATION_ID = "word-count";
    static final String INPUT = "words-input";
    static final String OUTPUT = "word-counts";
    /** The name of the repartition, in its topic's: {@code <application id>-<name>-repartition}. */
    static final String REPARTITION = "words-by-word";

    private WordCountApplication() {}

    public static void main(String[] args) throws InterruptedException {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[1]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        // Streams deletes the records of its repartition topic once they are committed (DeleteRecords): every second
        // rather than every 30, so that a short run does it.
        props.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, 1_000);
        // A killed instance's member leaves the group when its session ends: a short one lets the next start soon.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(
                        line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split(" ")))
                .groupBy((key, word) -> word, Grouped.with(REPARTITION, Serdes.String(), Serdes.String()))
                .count(Materialized.as("word-counts-store"))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));

        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        // A stream thread that fails (the broker went away mid-transaction) is replaced, as applications do.
        streams.setUncaughtExceptionHandler(error -> StreamThreadExceptionResponse.REPLACE_THREAD);
        streams.setStateListener((now, before) -> System.out.println("state " + before + " -> " + now));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            stopped.countDown();
        }));
        streams.start();
        stopped.await();
    }
}
