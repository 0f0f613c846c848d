package io.krabka.kernel.log;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A partition's batches as a leader would write them, with the producer state input the test expects of each:
 * plain batches, an idempotent producer, two transactional producers committing and aborting, every codec, and
 * partition leader epochs 0, 1 and 3. {@link #appendTo} applies them as the log's append path does (client and
 * coordinator validation, transaction index entries for aborts), to compare recovery with.
 */
final class SegmentWorkload {

    static final long IDEMPOTENT = 1_000L;
    static final long TXN_A = 2_000L;
    static final long TXN_B = 3_000L;
    static final short PRODUCER_EPOCH = 5;
    private static final CompressionType[] CODECS = CompressionType.values();

    /** One batch and what producer state should learn from it. */
    record Step(
            ByteBuffer batch,
            long firstOffset,
            long lastOffset,
            int leaderEpoch,
            Optional<ProducerBatch> producer,
            AppendOrigin origin) {}

    final List<Step> steps = new ArrayList<>();
    private final Random random = new Random(42);
    private final int[] sequences = new int[3];
    private final boolean[] open = new boolean[3];
    private long offset;

    /** {@code batches} batches from offset {@code baseOffset}; the last a larger compressed data batch. */
    SegmentWorkload(long baseOffset, int batches) {
        offset = baseOffset;
        for (int n = 0; n < batches - 1; n++) {
            int epoch = n < batches / 3 ? 0 : n < 2 * batches / 3 ? 1 : 3;
            long timestamp = TestBatches.T0 + n * 10L - random.nextInt(30);
            switch (n % 6) {
                case 0 -> data(-1, 1 + random.nextInt(6), timestamp, epoch, CODECS[n % CODECS.length]);
                case 1 -> data(0, 1 + random.nextInt(6), timestamp, epoch, CODECS[(n + 1) % CODECS.length]);
                case 2 -> data(1, 1 + random.nextInt(4), timestamp, epoch, CODECS[(n + 2) % CODECS.length]);
                case 3 -> data(2, 1 + random.nextInt(4), timestamp, epoch, Compression.NONE.type());
                case 4 ->
                    endOrData(1, n % 12 == 4 ? ControlRecordType.ABORT : ControlRecordType.COMMIT, timestamp, epoch);
                default ->
                    endOrData(2, n % 18 == 5 ? ControlRecordType.COMMIT : ControlRecordType.ABORT, timestamp, epoch);
            }
        }
        data(0, 25, TestBatches.T0 + batches * 10L, 3, CompressionType.ZSTD);
    }

    private static long producerId(int producer) {
        return switch (producer) {
            case 0 -> IDEMPOTENT;
            case 1 -> TXN_A;
            default -> TXN_B;
        };
    }

    /** A data batch: {@code producer} -1 for none, 0 idempotent, 1 and 2 transactional. */
    private void data(int producer, int count, long timestamp, int epoch, CompressionType codec) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.of(codec), TimestampType.CREATE_TIME, offset)
                .partitionLeaderEpoch(epoch);
        Optional<ProducerBatch> input = Optional.empty();
        AppendOrigin origin = AppendOrigin.CLIENT;
        if (producer >= 0) {
            boolean transactional = producer > 0;
            int sequence = sequences[producer];
            builder.producer(producerId(producer), PRODUCER_EPOCH, sequence).transactional(transactional);
            input = Optional.of(new ProducerBatch.Data(
                    producerId(producer),
                    PRODUCER_EPOCH,
                    sequence,
                    sequence + count - 1,
                    offset,
                    offset + count - 1,
                    timestamp + count - 1,
                    transactional));
            sequences[producer] += count;
            open[producer] |= transactional;
        }
        for (int i = 0; i < count; i++) {
            String value = "value-" + (offset + i) + "-" + letters(random.nextInt(120));
            builder.append(
                    timestamp + i,
                    ("k" + random.nextInt(50)).getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8));
        }
        add(builder.build(), offset + count - 1, epoch, input, origin);
    }

    /** Random letters: values that compress only so much, so compressed batches keep a size. */
    private String letters(int length) {
        StringBuilder letters = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            letters.append((char) ('a' + random.nextInt(26)));
        }
        return letters.toString();
    }

    private void endOrData(int producer, ControlRecordType type, long timestamp, int epoch) {
        if (!open[producer]) {
            data(producer, 2, timestamp, epoch, Compression.NONE.type());
            return;
        }
        int coordinatorEpoch = 7;
        ByteBuffer marker = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, offset)
                .producer(producerId(producer), PRODUCER_EPOCH, -1)
                .partitionLeaderEpoch(epoch)
                .appendEndTxnMarker(timestamp, new EndTransactionMarker(type, coordinatorEpoch))
                .build();
        TransactionResult result =
                type == ControlRecordType.COMMIT ? TransactionResult.COMMIT : TransactionResult.ABORT;
        add(
                marker,
                offset,
                epoch,
                Optional.of(new ProducerBatch.EndTxnMarker(
                        producerId(producer), PRODUCER_EPOCH, offset, timestamp, result, coordinatorEpoch)),
                AppendOrigin.COORDINATOR);
        open[producer] = false;
    }

    private void add(ByteBuffer batch, long lastOffset, int epoch, Optional<ProducerBatch> input, AppendOrigin origin) {
        steps.add(new Step(batch, offset, lastOffset, epoch, input, origin));
        offset = lastOffset + 1;
    }

    /** The position of step {@code n} in a segment holding the steps from the first. */
    int position(int n) {
        int position = 0;
        for (int i = 0; i < n; i++) {
            position += steps.get(i).batch().remaining();
        }
        return position;
    }

    /** The first {@code n} steps' bytes laid end to end. */
    byte[] bytes(int n) {
        return TestBatches.bytes(
                TestBatches.concat(steps.subList(0, n).stream().map(Step::batch).toArray(ByteBuffer[]::new)));
    }

    /**
     * Appends the first {@code n} steps to {@code segment} and applies them to {@code state} as the leader's append
     * path does: data batches validated as a client's, markers as the coordinator's (transaction version 0), the
     * aborted transactions written to the transaction index.
     */
    void appendTo(LogSegment segment, ProducerStateManager state, int n) throws IOException {
        for (Step step : steps.subList(0, n)) {
            int position = segment.size();
            segment.append(step.lastOffset(), MemoryRecords.readableRecords(step.batch(), "workload", 0));
            if (step.producer().isPresent()) {
                ProducerBatch input = step.producer().get();
                ProducerAppendInfo info = state.prepareUpdate(input.producerId(), step.origin());
                Optional<CompletedTxn> completed = info.append(
                        input,
                        Optional.of(new LogOffsetMetadata(step.firstOffset(), segment.baseOffset(), position)),
                        (short) 0);
                state.update(info);
                if (completed.isPresent()) {
                    segment.updateTxnIndex(completed.get(), state.lastStableOffset(completed.get()));
                    state.completeTxn(completed.get());
                }
            }
            state.updateMapEndOffset(step.lastOffset() + 1);
        }
    }

    /** The epochs recovery of the first {@code n} steps assigns: each epoch at the first batch carrying it. */
    List<TestEpochs.Assignment> epochs(int n) {
        List<TestEpochs.Assignment> epochs = new ArrayList<>();
        for (Step step : steps.subList(0, n)) {
            if (epochs.isEmpty() || epochs.getLast().epoch() < step.leaderEpoch()) {
                epochs.add(new TestEpochs.Assignment(step.leaderEpoch(), step.firstOffset()));
            }
        }
        return epochs;
    }
}
