package io.krabka.kernel.group;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;

/**
 * A member of a classic group (Kafka's {@code ClassicGroupMember}): its protocols, timeouts and assignment, and the
 * JoinGroup or SyncGroup it is waiting on. Guarded by the coordinator's lock.
 */
final class ClassicGroupMember {

    private final String memberId;
    private final String groupInstanceId;
    private final String clientId;
    private final String clientHost;
    private final String protocolType;
    private int rebalanceTimeoutMs;
    private int sessionTimeoutMs;
    private List<Protocol> supportedProtocols;
    private byte[] assignment = new byte[0];
    private CompletableFuture<JoinGroupResponseData> awaitingJoin;
    private CompletableFuture<SyncGroupResponseData> awaitingSync;
    private boolean isNew;

    ClassicGroupMember(
            String memberId,
            String groupInstanceId,
            String clientId,
            String clientHost,
            int rebalanceTimeoutMs,
            int sessionTimeoutMs,
            String protocolType,
            List<Protocol> supportedProtocols) {
        this.memberId = Objects.requireNonNull(memberId, "memberId");
        this.groupInstanceId = groupInstanceId;
        this.clientId = Objects.requireNonNull(clientId, "clientId");
        this.clientHost = Objects.requireNonNull(clientHost, "clientHost");
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocolType = Objects.requireNonNull(protocolType, "protocolType");
        this.supportedProtocols = List.copyOf(supportedProtocols);
    }

    String memberId() {
        return memberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStaticMember() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    String protocolType() {
        return protocolType;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    List<Protocol> supportedProtocols() {
        return supportedProtocols;
    }

    void update(List<Protocol> protocols, int rebalanceTimeoutMs, int sessionTimeoutMs) {
        this.supportedProtocols = List.copyOf(protocols);
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    byte[] assignment() {
        return assignment;
    }

    void setAssignment(byte[] assignment) {
        this.assignment = Objects.requireNonNull(assignment, "assignment");
    }

    /** The member's metadata for {@code protocolName}. */
    byte[] metadata(String protocolName) {
        return supportedProtocols.stream()
                .filter(p -> p.name().equals(protocolName))
                .findFirst()
                .map(Protocol::metadata)
                .orElseThrow(
                        () -> new IllegalStateException("member " + memberId + " has no protocol " + protocolName));
    }

    /** Whether these protocols are the member's, names and metadata in the same order. */
    boolean matches(List<Protocol> protocols) {
        if (protocols.size() != supportedProtocols.size()) {
            return false;
        }
        for (int i = 0; i < protocols.size(); i++) {
            Protocol mine = supportedProtocols.get(i);
            Protocol theirs = protocols.get(i);
            if (!mine.name().equals(theirs.name()) || !Arrays.equals(mine.metadata(), theirs.metadata())) {
                return false;
            }
        }
        return true;
    }

    /** The member's preferred protocol among {@code candidates}. */
    String vote(Set<String> candidates) {
        return supportedProtocols.stream()
                .map(Protocol::name)
                .filter(candidates::contains)
                .findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException("member " + memberId + " supports none of " + candidates));
    }

    CompletableFuture<JoinGroupResponseData> awaitingJoin() {
        return awaitingJoin;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    void setAwaitingJoin(CompletableFuture<JoinGroupResponseData> future) {
        this.awaitingJoin = future;
    }

    CompletableFuture<SyncGroupResponseData> awaitingSync() {
        return awaitingSync;
    }

    boolean isAwaitingSync() {
        return awaitingSync != null;
    }

    void setAwaitingSync(CompletableFuture<SyncGroupResponseData> future) {
        this.awaitingSync = future;
    }

    boolean isNew() {
        return isNew;
    }

    void setNew(boolean isNew) {
        this.isNew = isNew;
    }

    @Override
    public String toString() {
        return "ClassicGroupMember(memberId=" + memberId + ", groupInstanceId=" + groupInstanceId + ", clientId="
                + clientId + ", clientHost=" + clientHost + ")";
    }
}
