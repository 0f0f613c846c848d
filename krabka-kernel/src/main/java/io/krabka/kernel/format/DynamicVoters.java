package io.krabka.kernel.format;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.message.VotersRecord;

/**
 * The initial controllers of a KIP-853 dynamic quorum: Kafka's {@code --initial-controllers}, a comma-separated
 * list of {@link DynamicVoter}s with distinct node ids.
 */
public final class DynamicVoters {
    private final NavigableMap<Integer, DynamicVoter> voters;

    /**
     * @throws IllegalArgumentException if there are none or a node id appears twice, with Kafka's message
     */
    public DynamicVoters(Collection<DynamicVoter> voters) {
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("No voters given.");
        }
        TreeMap<Integer, DynamicVoter> byId = new TreeMap<>();
        for (DynamicVoter voter : voters) {
            if (byId.put(voter.nodeId(), voter) != null) {
                throw new IllegalArgumentException("Node id " + voter.nodeId() + " was specified more than once.");
            }
        }
        this.voters = Collections.unmodifiableNavigableMap(byId);
    }

    /**
     * Parses {@code id@host:port:directoryId,...}; empty items are skipped, as Kafka skips them.
     *
     * @throws IllegalArgumentException with Kafka's message
     */
    public static DynamicVoters parse(String text) {
        List<DynamicVoter> voters = Arrays.stream(text.trim().split(","))
                .filter(item -> !item.isEmpty())
                .map(DynamicVoter::parse)
                .toList();
        return new DynamicVoters(voters);
    }

    /** The voters by node id. */
    public NavigableMap<Integer, DynamicVoter> voters() {
        return voters;
    }

    /**
     * The {@code VotersRecord} Kafka writes for these voters, each with one endpoint on {@code listenerName}.
     * Kafka lists the voters in the iteration order of the {@code HashMap<Integer, VoterNode>} it keeps them in
     * (filled in node-id order, then copied); the same map gives the same order, and so the same bytes.
     */
    VotersRecord toVotersRecord(String listenerName, short version) {
        Map<Integer, DynamicVoter> filled = new HashMap<>();
        voters.forEach(filled::put);
        Map<Integer, DynamicVoter> kafkaOrder = new HashMap<>(filled);
        return new VotersRecord()
                .setVersion(version)
                .setVoters(kafkaOrder.values().stream()
                        .map(voter -> voter.toVotersRecordVoter(listenerName))
                        .collect(Collectors.toList()));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DynamicVoters that && voters.equals(that.voters);
    }

    @Override
    public int hashCode() {
        return voters.hashCode();
    }

    @Override
    public String toString() {
        return voters.values().stream().map(DynamicVoter::toString).collect(Collectors.joining(","));
    }
}
