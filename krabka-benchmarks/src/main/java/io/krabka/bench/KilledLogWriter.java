package io.krabka.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.server.common.RequestLocal;
import org.apache.kafka.server.common.TransactionVersion;
import org.apache.kafka.storage.internals.log.VerificationGuard;

/**
 * Writes a partition log in a child JVM and kills it with SIGKILL once every batch is acknowledged, as a broker
 * killed with {@code kill -9}: nothing flushed, no producer snapshot, no checkpoint, no clean-shutdown marker. The
 * log is one segment of up to {@value #LOG_BYTES} bytes (just under Kafka's default {@code segment.bytes}, so it
 * never rolls and the recovery point stays 0) of an idempotent producer's uncompressed batches of 16 KiB (the
 * producer's defaults: {@code batch.size}, {@code enable.idempotence}) of 1 KiB records.
 *
 * <p>The child is this class's {@link #main}, on the parent's class path:
 * {@code KilledLogWriter krabka|kafka <partition dir>}. It prints {@code acked <log end offset>} when done and
 * waits to be killed.
 */
public final class KilledLogWriter {
    static final long LOG_BYTES = 1L << 30;
    static final long PRODUCER_ID = 4_000L;
    private static final int BATCH_BYTES = 16 * 1024;
    private static final String ACKED = "acked ";

    private KilledLogWriter() {}

    /** Has a child JVM write the log of {@code side} in {@code dir}, kills it, and returns the acknowledged end. */
    static long writeAndKill(String side, Path dir) throws IOException, InterruptedException {
        Process child = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElseThrow(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        KilledLogWriter.class.getName(),
                        side,
                        dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            if (line == null || !line.startsWith(ACKED)) {
                throw new IllegalStateException("the " + side + " writer ended without acknowledging its log: " + line);
            }
            return Long.parseLong(line.substring(ACKED.length()));
        } finally {
            child.destroyForcibly();
            if (!child.waitFor(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the " + side + " writer did not die");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("krabka") || args[0].equals("kafka"))) {
            System.err.println("usage: KilledLogWriter krabka|kafka <partition dir>");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        long timestamp = System.currentTimeMillis();
        byte[][] values = ProducedBatch.values(BATCH_BYTES, timestamp);
        long logEndOffset =
                args[0].equals("krabka") ? writeKrabka(dir, values, timestamp) : writeKafka(dir, values, timestamp);
        System.out.println(ACKED + logEndOffset);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    private static long writeKrabka(Path dir, byte[][] values, long timestamp) throws IOException {
        var log = new KrabkaLogs().open(dir, true);
        for (int sequence = 0; ; sequence += values.length) {
            ProducedBatch batch = ProducedBatch.of(values, "none", timestamp, PRODUCER_ID, sequence);
            if (log.size() + batch.size() > LOG_BYTES) {
                return log.logEndOffset();
            }
            log.appendAsLeader(
                    ByteBuffer.wrap(batch.bytes()),
                    0,
                    io.krabka.kernel.log.AppendOrigin.CLIENT,
                    io.krabka.kernel.log.ProducerAppendInfo.TV_UNKNOWN);
        }
    }

    private static long writeKafka(Path dir, byte[][] values, long timestamp) throws IOException {
        var log = new KafkaLogs().open(dir, true);
        RequestLocal requestLocal = RequestLocal.withThreadConfinedCaching();
        for (int sequence = 0; ; sequence += values.length) {
            ProducedBatch batch = ProducedBatch.of(values, "none", timestamp, PRODUCER_ID, sequence);
            if (log.size() + batch.size() > LOG_BYTES) {
                return log.logEndOffset();
            }
            log.appendAsLeader(
                    MemoryRecords.readableRecords(ByteBuffer.wrap(batch.bytes())),
                    0,
                    org.apache.kafka.storage.internals.log.AppendOrigin.CLIENT,
                    requestLocal,
                    VerificationGuard.SENTINEL,
                    TransactionVersion.TV_UNKNOWN);
        }
    }
}
