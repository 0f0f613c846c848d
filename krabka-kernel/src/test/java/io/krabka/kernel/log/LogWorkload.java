package io.krabka.kernel.log;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.MemoryRecords;
import java.io.IOException;
import java.util.Random;

/**
 * A mixed produce workload on a log, acknowledged append by append: plain batches of every codec, an idempotent
 * producer, a transactional one whose transactions alternately commit and abort, timestamps that sometimes go back,
 * and a leader epoch that changes now and then. Deterministic for a seed.
 */
final class LogWorkload {

    static final long IDEMPOTENT_PRODUCER = 1;
    static final long TRANSACTIONAL_PRODUCER = 2;

    private final LogFixture fixture;
    private final Random random;
    private int step;
    private int idempotentSequence;
    private int transactionalSequence;
    private int transactionBatches;
    private int transactions;
    private int leaderEpoch;

    LogWorkload(LogFixture fixture, long seed) {
        this.fixture = fixture;
        this.random = new Random(seed);
    }

    /** The next sequence the idempotent producer sends. */
    int idempotentSequence() {
        return idempotentSequence;
    }

    /** The leader epoch of the next append. */
    int leaderEpoch() {
        return leaderEpoch;
    }

    void run(UnifiedLog log, int appends) throws IOException {
        for (int n = 0; n < appends; n++) {
            step++;
            fixture.time.sleep(1 + random.nextInt(3));
            if (step % 23 == 0) {
                leaderEpoch++;
            }
            switch (step % 5) {
                case 0 -> idempotent(log);
                case 1 -> log.appendAsLeader(fixture.records(codec(), values()), leaderEpoch);
                case 2 -> transactional(log);
                case 3 ->
                    log.appendAsLeader(
                            LogFixture.records(fixture.time.millis() - random.nextInt(100), values()), leaderEpoch);
                default -> idempotent(log);
            }
            log.updateHighWatermark(log.logEndOffset());
        }
    }

    private void idempotent(UnifiedLog log) throws IOException {
        String[] values = values();
        log.appendAsLeader(
                fixture.producerRecords(IDEMPOTENT_PRODUCER, (short) 0, idempotentSequence, false, values),
                leaderEpoch);
        idempotentSequence += values.length;
    }

    private void transactional(UnifiedLog log) throws IOException {
        if (transactionBatches < 2) {
            String[] values = values();
            log.appendAsLeader(
                    fixture.producerRecords(TRANSACTIONAL_PRODUCER, (short) 0, transactionalSequence, true, values),
                    leaderEpoch);
            transactionalSequence += values.length;
            transactionBatches++;
            return;
        }
        ControlRecordType type = transactions++ % 2 == 0 ? ControlRecordType.ABORT : ControlRecordType.COMMIT;
        MemoryRecords marker = fixture.marker(TRANSACTIONAL_PRODUCER, (short) 0, type, 0);
        log.appendAsLeader(marker.buffer(), leaderEpoch, AppendOrigin.COORDINATOR, (short) 0);
        transactionBatches = 0;
    }

    private Compression codec() {
        CompressionType[] types = CompressionType.values();
        return Compression.of(types[random.nextInt(types.length)]);
    }

    private String[] values() {
        String[] values = new String[1 + random.nextInt(5)];
        for (int i = 0; i < values.length; i++) {
            values[i] = "v" + step + "-" + i + "-" + "x".repeat(random.nextInt(40));
        }
        return values;
    }
}
