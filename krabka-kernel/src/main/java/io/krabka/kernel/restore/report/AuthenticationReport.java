package io.krabka.kernel.restore.report;

import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The authenticated restore's outcome: everything restored was vouched for by a manifest signed with a trusted key.
 *
 * @param partitions              partitions authenticated
 * @param manifests               manifests checked
 * @param objects                 objects checked against their manifest's claims
 * @param trustedKeys             the ids of the keys trusted
 * @param chainHeads              each partition's chain tip as restored, by partition directory
 * @param tailTruncationProtected whether every partition's tip was pinned by {@code --worm-expect-head}
 */
public record AuthenticationReport(
        int partitions,
        int manifests,
        int objects,
        List<String> trustedKeys,
        SortedMap<String, String> chainHeads,
        boolean tailTruncationProtected) {

    /** Freezes the parts. */
    public AuthenticationReport {
        trustedKeys = List.copyOf(trustedKeys);
        chainHeads = new TreeMap<>(Objects.requireNonNull(chainHeads, "chainHeads"));
    }
}
