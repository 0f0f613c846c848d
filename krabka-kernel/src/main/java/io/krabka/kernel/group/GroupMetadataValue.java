package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.coordinator.RecordFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * A classic group's metadata (Kafka's {@code GroupMetadataValue}, versions 0-4): {@code protocol_type} (string),
 * {@code generation} (int32), {@code protocol} and {@code leader} (nullable strings),
 * {@code current_state_timestamp} (int64, v2+), {@code members}. v4 is flexible. Kafka 4.4 writes v3.
 *
 * @param protocolType          the group's protocol type ("consumer"), "" for none
 * @param generation            the generation
 * @param protocol              the selected protocol (assignor), or null
 * @param leader                the leader's member id, or null
 * @param currentStateTimestamp when the group entered its state, or -1
 * @param members               the members
 */
public record GroupMetadataValue(
        String protocolType,
        int generation,
        String protocol,
        String leader,
        long currentStateTimestamp,
        List<MemberMetadata> members) {

    /** The newest version. */
    public static final short HIGHEST_VERSION = 4;
    /** The version Kafka 4.4 writes. */
    public static final short WRITE_VERSION = 3;

    /** Copies the members. */
    public GroupMetadataValue {
        Objects.requireNonNull(protocolType, "protocolType");
        members = List.copyOf(members);
    }

    /**
     * One member.
     *
     * @param memberId          the member id
     * @param groupInstanceId   the static member's instance id (v3+), or null
     * @param clientId          the client id
     * @param clientHost        the client's host
     * @param rebalanceTimeout  the rebalance timeout in ms (v1+), -1 before
     * @param sessionTimeout    the session timeout in ms
     * @param subscription      the member's metadata for the selected protocol
     * @param assignment        the member's assignment
     */
    public record MemberMetadata(
            String memberId,
            String groupInstanceId,
            String clientId,
            String clientHost,
            int rebalanceTimeout,
            int sessionTimeout,
            byte[] subscription,
            byte[] assignment) {

        /** Checks the required fields are present. */
        public MemberMetadata {
            Objects.requireNonNull(memberId, "memberId");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(clientHost, "clientHost");
            Objects.requireNonNull(subscription, "subscription");
            Objects.requireNonNull(assignment, "assignment");
        }

        void write(Writable out, short version) {
            boolean flexible = version >= 4;
            RecordFields.writeString(out, memberId, flexible);
            if (version >= 3) {
                RecordFields.writeString(out, groupInstanceId, flexible);
            } else if (groupInstanceId != null) {
                throw new IllegalArgumentException("a group instance id needs version 3, not " + version);
            }
            RecordFields.writeString(out, clientId, flexible);
            RecordFields.writeString(out, clientHost, flexible);
            if (version >= 1) {
                out.writeInt(rebalanceTimeout);
            }
            out.writeInt(sessionTimeout);
            RecordFields.writeBytes(out, subscription, flexible);
            RecordFields.writeBytes(out, assignment, flexible);
            if (flexible) {
                out.writeUnsignedVarint(0);
            }
        }

        static MemberMetadata read(Readable in, short version) {
            boolean flexible = version >= 4;
            String memberId = RecordFields.readString(in, flexible, false, "member_id");
            String instanceId = version >= 3 ? RecordFields.readString(in, flexible, true, "group_instance_id") : null;
            String clientId = RecordFields.readString(in, flexible, false, "client_id");
            String clientHost = RecordFields.readString(in, flexible, false, "client_host");
            int rebalanceTimeout = version >= 1 ? in.readInt() : -1;
            int sessionTimeout = in.readInt();
            byte[] subscription = RecordFields.readBytes(in, flexible, "subscription");
            byte[] assignment = RecordFields.readBytes(in, flexible, "assignment");
            if (flexible) {
                RecordFields.readTaggedFields(in, (tag, size, tagged) -> false);
            }
            return new MemberMetadata(
                    memberId,
                    instanceId,
                    clientId,
                    clientHost,
                    rebalanceTimeout,
                    sessionTimeout,
                    subscription,
                    assignment);
        }
    }

    void write(Writable out, short version) {
        checkVersion(version);
        boolean flexible = version >= 4;
        RecordFields.writeString(out, protocolType, flexible);
        out.writeInt(generation);
        RecordFields.writeString(out, protocol, flexible);
        RecordFields.writeString(out, leader, flexible);
        if (version >= 2) {
            out.writeLong(currentStateTimestamp);
        }
        RecordFields.writeArrayLength(out, members.size(), flexible);
        for (MemberMetadata member : members) {
            member.write(out, version);
        }
        if (flexible) {
            out.writeUnsignedVarint(0);
        }
    }

    static GroupMetadataValue read(Readable in, short version) {
        checkVersion(version);
        boolean flexible = version >= 4;
        String protocolType = RecordFields.readString(in, flexible, false, "protocol_type");
        int generation = in.readInt();
        String protocol = RecordFields.readString(in, flexible, true, "protocol");
        String leader = RecordFields.readString(in, flexible, true, "leader");
        long timestamp = version >= 2 ? in.readLong() : -1;
        int count = RecordFields.readArrayLength(in, flexible, "members");
        List<MemberMetadata> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            members.add(MemberMetadata.read(in, version));
        }
        if (flexible) {
            RecordFields.readTaggedFields(in, (tag, size, tagged) -> false);
        }
        return new GroupMetadataValue(protocolType, generation, protocol, leader, timestamp, members);
    }

    private static void checkVersion(short version) {
        if (version < 0 || version > HIGHEST_VERSION) {
            throw new CoordinatorRecordException("GroupMetadataValue has no version " + version);
        }
    }
}
