package io.krabka.it;

import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A record batch as DumpLogSegments printed it (magic 2), with its records where it iterated deeply.
 *
 * @param baseOffset           {@code baseOffset}
 * @param lastOffset           {@code lastOffset}
 * @param count                {@code count}: the record count of the header
 * @param baseSequence         {@code baseSequence}
 * @param lastSequence         {@code lastSequence}
 * @param producerId           {@code producerId}
 * @param producerEpoch        {@code producerEpoch}
 * @param partitionLeaderEpoch {@code partitionLeaderEpoch}
 * @param transactional        {@code isTransactional}
 * @param control              {@code isControl}
 * @param deleteHorizonMs      {@code deleteHorizonMs}
 * @param position             {@code position}: where the batch starts in the file
 * @param timestampType        {@code CreateTime} or {@code LogAppendTime}
 * @param maxTimestamp         the batch's max timestamp, printed after its type
 * @param size                 {@code size}, header included
 * @param magic                {@code magic}
 * @param compression          {@code compresscodec}: none, gzip, snappy, lz4 or zstd
 * @param crc                  {@code crc}
 * @param valid                {@code isvalid}: whether the CRC matches
 * @param records              its records; empty unless deep iteration
 */
record DumpedBatch(
        long baseOffset,
        long lastOffset,
        int count,
        int baseSequence,
        int lastSequence,
        long producerId,
        short producerEpoch,
        int partitionLeaderEpoch,
        boolean transactional,
        boolean control,
        OptionalLong deleteHorizonMs,
        long position,
        String timestampType,
        long maxTimestamp,
        int size,
        byte magic,
        String compression,
        long crc,
        boolean valid,
        List<DumpedRecord> records) {

    private static final Pattern LINE = Pattern.compile(
            "baseOffset: (-?\\d+) lastOffset: (-?\\d+) count: (\\d+)"
                    + " baseSequence: (-?\\d+) lastSequence: (-?\\d+) producerId: (-?\\d+) producerEpoch: (-?\\d+)"
                    + " partitionLeaderEpoch: (-?\\d+) isTransactional: (true|false) isControl: (true|false)"
                    + " deleteHorizonMs: OptionalLong(?:\\.empty|\\[(-?\\d+)])"
                    + " position: (\\d+) (\\w+): (-?\\d+) size: (\\d+) magic: (\\d+) compresscodec: (\\w+) crc: (\\d+) isvalid: (true|false)");

    /** Copies the records. */
    DumpedBatch {
        records = List.copyOf(records);
    }

    /** The batch a line describes, without records; null if it is no batch line. */
    static DumpedBatch parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return null;
        }
        OptionalLong deleteHorizon =
                m.group(11) == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(m.group(11)));
        return new DumpedBatch(
                Long.parseLong(m.group(1)),
                Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)),
                Long.parseLong(m.group(6)),
                Short.parseShort(m.group(7)),
                Integer.parseInt(m.group(8)),
                Boolean.parseBoolean(m.group(9)),
                Boolean.parseBoolean(m.group(10)),
                deleteHorizon,
                Long.parseLong(m.group(12)),
                m.group(13),
                Long.parseLong(m.group(14)),
                Integer.parseInt(m.group(15)),
                Byte.parseByte(m.group(16)),
                m.group(17),
                Long.parseLong(m.group(18)),
                Boolean.parseBoolean(m.group(19)),
                List.of());
    }

    /** The same batch with its records. */
    DumpedBatch withRecords(List<DumpedRecord> records) {
        return new DumpedBatch(
                baseOffset,
                lastOffset,
                count,
                baseSequence,
                lastSequence,
                producerId,
                producerEpoch,
                partitionLeaderEpoch,
                transactional,
                control,
                deleteHorizonMs,
                position,
                timestampType,
                maxTimestamp,
                size,
                magic,
                compression,
                crc,
                valid,
                records);
    }

    /**
     * A record as DumpLogSegments printed it under its batch.
     *
     * @param offset        {@code offset}
     * @param timestampType {@code CreateTime} or {@code LogAppendTime}
     * @param timestamp     its timestamp
     * @param keySize       {@code keySize}, -1 for a null key
     * @param valueSize     {@code valueSize}, -1 for a null value
     * @param sequence      {@code sequence}
     * @param headerKeys    the header keys as printed between the brackets, joined by commas
     * @param control       what follows for a control record, such as {@code endTxnMarker: COMMIT coordinatorEpoch: 0};
     *                      empty for a data record
     */
    record DumpedRecord(
            long offset,
            String timestampType,
            long timestamp,
            int keySize,
            int valueSize,
            int sequence,
            String headerKeys,
            String control) {

        private static final Pattern LINE = Pattern.compile("\\| offset: (-?\\d+) (\\w+): (-?\\d+) keySize: (-?\\d+)"
                + " valueSize: (-?\\d+) sequence: (-?\\d+) headerKeys: \\[(.*?)](?: (.+))?");

        /** The record a line describes; null if it is no record line. */
        static DumpedRecord parse(String line) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                return null;
            }
            return new DumpedRecord(
                    Long.parseLong(m.group(1)),
                    m.group(2),
                    Long.parseLong(m.group(3)),
                    Integer.parseInt(m.group(4)),
                    Integer.parseInt(m.group(5)),
                    Integer.parseInt(m.group(6)),
                    m.group(7),
                    m.group(8) == null ? "" : m.group(8));
        }
    }
}
