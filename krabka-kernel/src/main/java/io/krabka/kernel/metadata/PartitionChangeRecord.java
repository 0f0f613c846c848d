package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.utils.internals.ByteUtils;

/**
 * Kafka's {@code PartitionChangeRecord} (api key 5, versions 0-2, flexible): a partition's registration changes, as
 * Kafka's controller records a leader election, an ISR change or a reassignment. Fields: {@code PartitionId} (int32),
 * {@code TopicId} (uuid), then only tagged fields, each written when it changed: {@code Isr} (tag 0),
 * {@code Leader} (tag 1, int32; -2 when unchanged, -1 for none), {@code Replicas} (2), {@code RemovingReplicas} (3),
 * {@code AddingReplicas} (4), {@code LeaderRecoveryState} (5, int8; -1 when unchanged), {@code EligibleLeaderReplicas}
 * (6, v2+), {@code LastKnownElr} (7, v2+), {@code Directories} (8, v1+, uuids); the arrays are compact int32 arrays.
 *
 * @param partitionId         the partition
 * @param topicId             its topic's id
 * @param isr                 the new ISR, if it changed
 * @param leader              the new leader, {@link #NO_LEADER_CHANGE} if it did not change, -1 for none
 * @param replicas            the new replicas, if they changed
 * @param removingReplicas    the new removing replicas, if they changed
 * @param addingReplicas      the new adding replicas, if they changed
 * @param leaderRecoveryState the new leader recovery state, -1 if it did not change
 * @param elr                 the new eligible leader replicas, if they changed (v2+)
 * @param lastKnownElr        the new last known ELR, if it changed (v2+)
 * @param directories         each replica's new log directory, if they changed (v1+)
 */
public record PartitionChangeRecord(
        int partitionId,
        Uuid topicId,
        Optional<List<Integer>> isr,
        int leader,
        Optional<List<Integer>> replicas,
        Optional<List<Integer>> removingReplicas,
        Optional<List<Integer>> addingReplicas,
        byte leaderRecoveryState,
        Optional<List<Integer>> elr,
        Optional<List<Integer>> lastKnownElr,
        Optional<List<Uuid>> directories)
        implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 5;
    /** The leader value of a change that keeps the leader. */
    public static final int NO_LEADER_CHANGE = -2;

    /** Copies the lists. */
    public PartitionChangeRecord {
        Objects.requireNonNull(topicId, "topicId");
        isr = isr.map(List::copyOf);
        replicas = replicas.map(List::copyOf);
        removingReplicas = removingReplicas.map(List::copyOf);
        addingReplicas = addingReplicas.map(List::copyOf);
        elr = elr.map(List::copyOf);
        lastKnownElr = lastKnownElr.map(List::copyOf);
        directories = directories.map(List::copyOf);
    }

    /** A change that only elects {@code leader}: Kafka's controller then raises the leader epoch. */
    public static PartitionChangeRecord electing(Uuid topicId, int partitionId, int leader) {
        return new PartitionChangeRecord(
                partitionId,
                topicId,
                Optional.empty(),
                leader,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                (byte) -1,
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    /**
     * A change that elects {@code leader} out of the eligible leader replicas (KIP-966, version 2): it becomes the
     * ISR, and the ELR and last known ELR are emptied, as Kafka's controller elects a single node again after its
     * controlled shutdown emptied the ISR.
     */
    public static PartitionChangeRecord electingFromElr(Uuid topicId, int partitionId, int leader) {
        return new PartitionChangeRecord(
                partitionId,
                topicId,
                Optional.of(List.of(leader)),
                leader,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                (byte) -1,
                Optional.of(List.of()),
                Optional.of(List.of()),
                Optional.empty());
    }

    /**
     * The registration after this change, as Kafka's {@code PartitionRegistration.merge}: a new leader raises the
     * leader epoch, every change the partition epoch.
     */
    public PartitionRegistration merge(PartitionRegistration registration) {
        boolean newLeader = leader != NO_LEADER_CHANGE;
        return new PartitionRegistration(
                replicas.orElse(registration.replicas()),
                isr.orElse(registration.isr()),
                newLeader ? leader : registration.leader(),
                newLeader ? registration.leaderEpoch() + 1 : registration.leaderEpoch(),
                registration.partitionEpoch() + 1);
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
        if (version < 1 && directories.isPresent()) {
            throw new IllegalArgumentException("Attempted to write a non-default directories at version " + version);
        }
        if (version < 2 && (elr.isPresent() || lastKnownElr.isPresent())) {
            throw new IllegalArgumentException("Attempted to write a non-default eligibleLeaderReplicas or "
                    + "lastKnownElr at version " + version);
        }
        out.writeInt(partitionId);
        Fields.writeUuid(out, topicId);
        int tagged = Stream.of(isr, replicas, removingReplicas, addingReplicas, elr, lastKnownElr, directories)
                        .mapToInt(field -> field.isPresent() ? 1 : 0)
                        .sum()
                + (leader != NO_LEADER_CHANGE ? 1 : 0)
                + (leaderRecoveryState != -1 ? 1 : 0);
        out.writeUnsignedVarint(tagged);
        isr.ifPresent(values -> Fields.writeTaggedInts(out, 0, values));
        if (leader != NO_LEADER_CHANGE) {
            out.writeUnsignedVarint(1);
            out.writeUnsignedVarint(Integer.BYTES);
            out.writeInt(leader);
        }
        replicas.ifPresent(values -> Fields.writeTaggedInts(out, 2, values));
        removingReplicas.ifPresent(values -> Fields.writeTaggedInts(out, 3, values));
        addingReplicas.ifPresent(values -> Fields.writeTaggedInts(out, 4, values));
        if (leaderRecoveryState != -1) {
            out.writeUnsignedVarint(5);
            out.writeUnsignedVarint(Byte.BYTES);
            out.writeByte(leaderRecoveryState);
        }
        elr.ifPresent(values -> Fields.writeTaggedInts(out, 6, values));
        lastKnownElr.ifPresent(values -> Fields.writeTaggedInts(out, 7, values));
        directories.ifPresent(values -> {
            out.writeUnsignedVarint(8);
            out.writeUnsignedVarint(ByteUtils.sizeOfUnsignedVarint(values.size() + 1) + 2 * Long.BYTES * values.size());
            Fields.writeUuids(out, values);
        });
    }

    static PartitionChangeRecord read(Readable in, short version) {
        Fields.checkRemaining(in, Integer.BYTES, "partitionId");
        int partitionId = in.readInt();
        Uuid topicId = Fields.readUuid(in);
        Tagged tagged = new Tagged();
        Fields.readTaggedFields(in, (tag, field) -> {
            switch (tag) {
                case 0 -> tagged.isr = Fields.readNullableInts(field, "isr");
                case 1 -> tagged.leader = field.readInt();
                case 2 -> tagged.replicas = Fields.readNullableInts(field, "replicas");
                case 3 -> tagged.removing = Fields.readNullableInts(field, "removingReplicas");
                case 4 -> tagged.adding = Fields.readNullableInts(field, "addingReplicas");
                case 5 -> tagged.leaderRecoveryState = field.readByte();
                case 6 ->
                    tagged.elr =
                            version >= 2 ? Fields.readNullableInts(field, "eligibleLeaderReplicas") : Optional.empty();
                case 7 ->
                    tagged.lastKnownElr =
                            version >= 2 ? Fields.readNullableInts(field, "lastKnownElr") : Optional.empty();
                case 8 ->
                    tagged.directories =
                            version >= 1 ? Optional.of(Fields.readUuids(field, "directories")) : Optional.empty();
                default -> {}
            }
        });
        return new PartitionChangeRecord(
                partitionId,
                topicId,
                tagged.isr,
                tagged.leader,
                tagged.replicas,
                tagged.removing,
                tagged.adding,
                tagged.leaderRecoveryState,
                tagged.elr,
                tagged.lastKnownElr,
                tagged.directories);
    }

    /** The tagged fields as read, at their defaults until then. */
    private static final class Tagged {
        Optional<List<Integer>> isr = Optional.empty();
        int leader = NO_LEADER_CHANGE;
        Optional<List<Integer>> replicas = Optional.empty();
        Optional<List<Integer>> removing = Optional.empty();
        Optional<List<Integer>> adding = Optional.empty();
        byte leaderRecoveryState = -1;
        Optional<List<Integer>> elr = Optional.empty();
        Optional<List<Integer>> lastKnownElr = Optional.empty();
        Optional<List<Uuid>> directories = Optional.empty();
    }
}
