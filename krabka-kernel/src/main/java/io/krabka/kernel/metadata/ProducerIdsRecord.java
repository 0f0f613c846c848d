package io.krabka.kernel.metadata;

import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code ProducerIdsRecord} (api key 15, version 0, flexible): a block of producer ids is given to a broker.
 * Fields: {@code BrokerId} (int32), {@code BrokerEpoch} (int64), {@code NextProducerId} (int64: the first id of the
 * next block), then the tagged fields (none).
 *
 * @param brokerId       the broker given the block
 * @param brokerEpoch    its epoch
 * @param nextProducerId the first producer id after the block
 */
public record ProducerIdsRecord(int brokerId, long brokerEpoch, long nextProducerId) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 15;

    @Override
    public short apiKey() {
        return API_KEY;
    }

    @Override
    public short highestSupportedVersion() {
        return 0;
    }

    @Override
    public void write(Writable out, short version) {
        Fields.checkVersion(this, version);
        out.writeInt(brokerId);
        out.writeLong(brokerEpoch);
        out.writeLong(nextProducerId);
        out.writeUnsignedVarint(0);
    }

    static ProducerIdsRecord read(Readable in, short version) {
        Fields.checkRemaining(in, Integer.BYTES + 2 * Long.BYTES, "ProducerIdsRecord");
        ProducerIdsRecord record = new ProducerIdsRecord(in.readInt(), in.readLong(), in.readLong());
        Fields.skipTaggedFields(in);
        return record;
    }
}
