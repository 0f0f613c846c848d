package io.krabka.kernel.format;

import io.krabka.kernel.metadata.WireUuids;
import io.krabka.spi.common.Uuid;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.message.VotersRecord;

/**
 * One initial controller of a KIP-853 dynamic quorum, written {@code id@host:port:directoryId} (an IPv6 host in
 * brackets), as Kafka's {@code --initial-controllers} takes it.
 *
 * @param nodeId      the controller's node id, at least zero
 * @param host        its controller listener's host
 * @param port        its controller listener's port, 0 to 65535
 * @param directoryId the id of its metadata log directory
 */
public record DynamicVoter(int nodeId, String host, int port, Uuid directoryId) {

    /** The kraft.version range every initial voter is recorded as supporting, as Kafka records it. */
    static final short MIN_SUPPORTED_KRAFT_VERSION = 0;

    static final short MAX_SUPPORTED_KRAFT_VERSION = 1;

    /** Validates the values. */
    public DynamicVoter {
        if (nodeId < 0) {
            throw new IllegalArgumentException("Invalid negative node id " + nodeId + " in dynamic voter string.");
        }
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Invalid port " + port + " in dynamic voter string.");
        }
        Objects.requireNonNull(directoryId, "directoryId");
    }

    /**
     * Parses {@code id@host:port:directoryId}, with Kafka's messages.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static DynamicVoter parse(String text) {
        String input = text.trim();
        int at = input.indexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("No @ found in dynamic voter string.");
        }
        if (at == 0) {
            throw new IllegalArgumentException("Invalid @ at beginning of dynamic voter string.");
        }
        int nodeId;
        try {
            nodeId = Integer.parseInt(input.substring(0, at));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Failed to parse node id in dynamic voter string.", e);
        }
        if (nodeId < 0) {
            throw new IllegalArgumentException("Invalid negative node id " + nodeId + " in dynamic voter string.");
        }
        input = input.substring(at + 1);
        if (input.isEmpty()) {
            throw new IllegalArgumentException("No hostname found after node id.");
        }
        String host;
        if (input.startsWith("[")) {
            int close = input.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("Hostname began with left bracket, but no right bracket was found.");
            }
            host = input.substring(1, close);
            input = input.substring(close + 1);
        } else {
            int colon = input.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("No colon following hostname could be found.");
            }
            host = input.substring(0, colon);
            input = input.substring(colon);
        }
        if (!input.startsWith(":")) {
            throw new IllegalArgumentException("Port section must start with a colon.");
        }
        input = input.substring(1);
        int colon = input.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("No colon following port could be found.");
        }
        int port;
        try {
            port = Integer.parseInt(input.substring(0, colon));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Failed to parse port in dynamic voter string.", e);
        }
        Uuid directoryId;
        try {
            directoryId = Uuid.fromString(input.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Failed to parse directory ID in dynamic voter string.", e);
        }
        return new DynamicVoter(nodeId, host, port, directoryId);
    }

    /** The voter as Kafka records it in a {@code VotersRecord}, its one endpoint on {@code listenerName}. */
    VotersRecord.Voter toVotersRecordVoter(String listenerName) {
        VotersRecord.EndpointCollection endpoints = new VotersRecord.EndpointCollection();
        endpoints.add(new VotersRecord.Endpoint()
                .setName(listenerName.toUpperCase(Locale.ROOT))
                .setHost(endpointHost(host))
                .setPort(port));
        return new VotersRecord.Voter()
                .setVoterId(nodeId)
                .setVoterDirectoryId(WireUuids.toWire(directoryId))
                .setEndpoints(endpoints)
                .setKRaftVersionFeature(new VotersRecord.KRaftVersionFeature()
                        .setMinSupportedVersion(MIN_SUPPORTED_KRAFT_VERSION)
                        .setMaxSupportedVersion(MAX_SUPPORTED_KRAFT_VERSION));
    }

    // Kafka records InetSocketAddress(host, port).getHostString(): a name as given, an address literal in Java's
    // canonical text (::1 becomes 0:0:0:0:0:0:0:1), no host at all as the loopback's name. Literals are parsed
    // without a name lookup.
    private static String endpointHost(String host) {
        if (host.isEmpty()) {
            return "localhost";
        }
        try {
            return InetAddress.ofLiteral(host).getHostAddress();
        } catch (IllegalArgumentException notALiteral) {
            return host;
        }
    }

    @Override
    public String toString() {
        return nodeId + "@" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + ":" + directoryId;
    }
}
