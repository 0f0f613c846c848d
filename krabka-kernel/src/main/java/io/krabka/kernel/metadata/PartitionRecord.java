package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code PartitionRecord} (api key 3, versions 0-2, flexible): a partition is created. Fields:
 * {@code PartitionId} (int32), {@code TopicId} (uuid), {@code Replicas}, {@code Isr}, {@code RemovingReplicas},
 * {@code AddingReplicas} (compact int32 arrays), {@code Leader}, {@code LeaderEpoch}, {@code PartitionEpoch}
 * (int32), {@code Directories} (v1+, compact uuid array), then the tagged fields: {@code LeaderRecoveryState}
 * (tag 0, int8, written unless 0), {@code EligibleLeaderReplicas} (tag 1, v2+) and {@code LastKnownElr} (tag 2,
 * v2+), both nullable int32 arrays written unless null.
 *
 * @param partitionId            the partition
 * @param topicId                its topic's id
 * @param replicas               the replicas, preferred first
 * @param isr                    the in-sync replicas
 * @param removingReplicas       the replicas being removed
 * @param addingReplicas         the replicas being added
 * @param leader                 the leader, -1 for none
 * @param leaderRecoveryState    1 while recovering from an unclean election, else 0
 * @param leaderEpoch            the leader epoch
 * @param partitionEpoch         the partition epoch
 * @param directories            each replica's log directory id (v1+; empty before)
 * @param eligibleLeaderReplicas KIP-966's eligible leader replicas (v2+), empty for null
 * @param lastKnownElr           KIP-966's last known ELR (v2+), empty for null
 */
public record PartitionRecord(
        int partitionId,
        Uuid topicId,
        List<Integer> replicas,
        List<Integer> isr,
        List<Integer> removingReplicas,
        List<Integer> addingReplicas,
        int leader,
        byte leaderRecoveryState,
        int leaderEpoch,
        int partitionEpoch,
        List<Uuid> directories,
        Optional<List<Integer>> eligibleLeaderReplicas,
        Optional<List<Integer>> lastKnownElr)
        implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 3;

    /** Copies the lists. */
    public PartitionRecord {
        Objects.requireNonNull(topicId, "topicId");
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        removingReplicas = List.copyOf(removingReplicas);
        addingReplicas = List.copyOf(addingReplicas);
        directories = List.copyOf(directories);
        eligibleLeaderReplicas = eligibleLeaderReplicas.map(List::copyOf);
        lastKnownElr = lastKnownElr.map(List::copyOf);
    }

    /**
     * A new partition as Krabka's controller creates one: no reassignment, recovered, no ELR.
     *
     * @param directories each replica's log directory (none below version 1)
     */
    public static PartitionRecord of(
            Uuid topicId, int partitionId, PartitionRegistration registration, List<Uuid> directories) {
        return new PartitionRecord(
                partitionId,
                topicId,
                registration.replicas(),
                registration.isr(),
                List.of(),
                List.of(),
                registration.leader(),
                (byte) 0,
                registration.leaderEpoch(),
                registration.partitionEpoch(),
                directories,
                Optional.empty(),
                Optional.empty());
    }

    /** The partition's registration in the image. */
    public PartitionRegistration registration() {
        return new PartitionRegistration(replicas, isr, leader, leaderEpoch, partitionEpoch);
    }

    @Override
    public short apiKey() {
        return API_KEY;
    }

    @Override
    public short highestSupportedVersion() {
        return 2;
    }

    @Override
    public void write(Writable out, short version) {
        Fields.checkVersion(this, version);
        if (version < 1 && !directories.isEmpty()) {
            throw new IllegalArgumentException("Attempted to write a non-default directories at version " + version);
        }
        if (version < 2 && (eligibleLeaderReplicas.isPresent() || lastKnownElr.isPresent())) {
            throw new IllegalArgumentException("Attempted to write a non-default eligibleLeaderReplicas or lastKnownElr"
                    + " at version " + version);
        }
        out.writeInt(partitionId);
        Fields.writeUuid(out, topicId);
        Fields.writeInts(out, replicas);
        Fields.writeInts(out, isr);
        Fields.writeInts(out, removingReplicas);
        Fields.writeInts(out, addingReplicas);
        out.writeInt(leader);
        out.writeInt(leaderEpoch);
        out.writeInt(partitionEpoch);
        if (version >= 1) {
            Fields.writeUuids(out, directories);
        }
        int tagged = (leaderRecoveryState != 0 ? 1 : 0)
                + (eligibleLeaderReplicas.isPresent() ? 1 : 0)
                + (lastKnownElr.isPresent() ? 1 : 0);
        out.writeUnsignedVarint(tagged);
        if (leaderRecoveryState != 0) {
            out.writeUnsignedVarint(0);
            out.writeUnsignedVarint(1);
            out.writeByte(leaderRecoveryState);
        }
        eligibleLeaderReplicas.ifPresent(values -> Fields.writeTaggedInts(out, 1, values));
        lastKnownElr.ifPresent(values -> Fields.writeTaggedInts(out, 2, values));
    }

    static PartitionRecord read(Readable in, short version) {
        Fields.checkRemaining(in, Integer.BYTES, "partitionId");
        int partitionId = in.readInt();
        Uuid topicId = Fields.readUuid(in);
        List<Integer> replicas = Fields.readInts(in, "replicas");
        List<Integer> isr = Fields.readInts(in, "isr");
        List<Integer> removing = Fields.readInts(in, "removingReplicas");
        List<Integer> adding = Fields.readInts(in, "addingReplicas");
        Fields.checkRemaining(in, 3 * Integer.BYTES, "leader");
        int leader = in.readInt();
        int leaderEpoch = in.readInt();
        int partitionEpoch = in.readInt();
        List<Uuid> directories = version >= 1 ? Fields.readUuids(in, "directories") : List.of();
        Tagged tagged = new Tagged();
        Fields.readTaggedFields(in, (tag, field) -> {
            switch (tag) {
                case 0 -> tagged.leaderRecoveryState = field.readByte();
                case 1 ->
                    tagged.elr =
                            version >= 2 ? Fields.readNullableInts(field, "eligibleLeaderReplicas") : Optional.empty();
                case 2 ->
                    tagged.lastKnownElr =
                            version >= 2 ? Fields.readNullableInts(field, "lastKnownElr") : Optional.empty();
                default -> {}
            }
        });
        return new PartitionRecord(
                partitionId,
                topicId,
                replicas,
                isr,
                removing,
                adding,
                leader,
                tagged.leaderRecoveryState,
                leaderEpoch,
                partitionEpoch,
                directories,
                tagged.elr,
                tagged.lastKnownElr);
    }

    /** The tagged fields as read. */
    private static final class Tagged {
        byte leaderRecoveryState;
        Optional<List<Integer>> elr = Optional.empty();
        Optional<List<Integer>> lastKnownElr = Optional.empty();
    }
}
