package io.krabka.it;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.ControlRecordType;

/** One entry of a partition's log as a test expects or finds it: a record, or a transaction marker. */
sealed interface LogEntry {

    /**
     * A record as produced, or as read back from the log.
     *
     * @param timestamp     its timestamp: the create time, or the log append time where the topic uses it
     * @param key           its key, or null
     * @param value         its value, or null
     * @param headers       its headers in order, with null values where produced so
     * @param transactional whether it was produced in a transaction
     */
    record Data(long timestamp, byte[] key, byte[] value, List<HeaderEntry> headers, boolean transactional)
            implements LogEntry {

        /** Copies the headers. */
        public Data {
            headers = List.copyOf(headers);
        }

        /** The same record: compares the bytes of key and value rather than the arrays. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Data other
                    && timestamp == other.timestamp
                    && Arrays.equals(key, other.key)
                    && Arrays.equals(value, other.value)
                    && headers.equals(other.headers)
                    && transactional == other.transactional;
        }

        @Override
        public int hashCode() {
            return Objects.hash(timestamp, Arrays.hashCode(key), Arrays.hashCode(value), headers, transactional);
        }

        @Override
        public String toString() {
            return "Data[timestamp=" + timestamp + ", key=" + (key == null ? "null" : new String(key))
                    + ", value=" + (value == null ? "null" : value.length + " bytes, hash " + Arrays.hashCode(value))
                    + ", headers=" + headers + ", transactional=" + transactional + "]";
        }
    }

    /**
     * A transaction marker (a control batch).
     *
     * @param type ABORT or COMMIT
     */
    record Marker(ControlRecordType type) implements LogEntry {

        /** Checks the type is not null. */
        public Marker {
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * A record header.
     *
     * @param key   its key
     * @param value its value, or null
     */
    record HeaderEntry(String key, byte[] value) {

        /** Checks the key is not null. */
        public HeaderEntry {
            Objects.requireNonNull(key, "key");
        }

        static HeaderEntry of(Header header) {
            return new HeaderEntry(header.key(), header.value());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof HeaderEntry other && key.equals(other.key) && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return 31 * key.hashCode() + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return key + "=" + (value == null ? "null" : Arrays.toString(value));
        }
    }
}
