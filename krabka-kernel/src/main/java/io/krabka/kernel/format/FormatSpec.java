package io.krabka.kernel.format;

import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What to format: Kafka's {@code kafka-storage format} settings, given on the command line rather than in a
 * {@code server.properties}.
 *
 * @param logDirs                the log directories ({@code log.dirs}), at least one
 * @param metadataLogDir         the metadata log directory ({@code metadata.log.dir}); it need not be one of
 *                               {@code logDirs}, and is formatted too
 * @param clusterId              the cluster's id, in Kafka's form
 * @param nodeId                 the node's id ({@code node.id}), at least zero
 * @param directoryId            the metadata log directory's id; generated when empty. The other directories'
 *                               ids are always generated.
 * @param releaseVersion         {@code --release-version}, Kafka 4.4's newest production level when empty
 * @param features               {@code --feature} settings, {@code name=level}
 * @param quorum                 how the controller quorum starts
 * @param controllerListenerName the controllers' listener name
 * @param ignoreFormatted        skip formatted directories rather than refuse them
 * @param scramArguments         {@code --add-scram} values, Kafka's syntax ({@link ScramArgument})
 * @param aclArguments           {@code --add-acl} values ({@link AclArgument})
 */
public record FormatSpec(
        List<Path> logDirs,
        Path metadataLogDir,
        String clusterId,
        int nodeId,
        Optional<Uuid> directoryId,
        Optional<String> releaseVersion,
        List<String> features,
        InitialQuorum quorum,
        String controllerListenerName,
        boolean ignoreFormatted,
        List<String> scramArguments,
        List<String> aclArguments) {

    /** What to format, bootstrapping no SCRAM credential and no ACL. */
    public FormatSpec(
            List<Path> logDirs,
            Path metadataLogDir,
            String clusterId,
            int nodeId,
            Optional<Uuid> directoryId,
            Optional<String> releaseVersion,
            List<String> features,
            InitialQuorum quorum,
            String controllerListenerName,
            boolean ignoreFormatted) {
        this(
                logDirs,
                metadataLogDir,
                clusterId,
                nodeId,
                directoryId,
                releaseVersion,
                features,
                quorum,
                controllerListenerName,
                ignoreFormatted,
                List.of(),
                List.of());
    }

    /** Validates the values; paths are made absolute and normal. */
    public FormatSpec {
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("no log directory");
        }
        logDirs = logDirs.stream().map(FormatSpec::normal).distinct().toList();
        metadataLogDir = normal(metadataLogDir);
        Objects.requireNonNull(clusterId, "clusterId");
        if (clusterId.isEmpty()) {
            throw new IllegalArgumentException("empty cluster id");
        }
        if (nodeId < 0) {
            throw new IllegalArgumentException(
                    "Invalid value " + nodeId + " for configuration node.id: Value must be at least 0");
        }
        Objects.requireNonNull(directoryId, "directoryId");
        directoryId.ifPresent(id -> {
            if (DirectoryId.isReserved(id)) {
                throw new IllegalArgumentException("directory id " + id + " is one of the 100 ids Kafka reserves");
            }
        });
        Objects.requireNonNull(releaseVersion, "releaseVersion");
        features = List.copyOf(features);
        Objects.requireNonNull(quorum, "quorum");
        Objects.requireNonNull(controllerListenerName, "controllerListenerName");
        if (controllerListenerName.isEmpty()) {
            throw new IllegalArgumentException("empty controller listener name");
        }
        scramArguments = List.copyOf(scramArguments);
        aclArguments = List.copyOf(aclArguments);
    }

    /** Every directory to format, the metadata log directory included, in path order. */
    public SortedSet<Path> directories() {
        SortedSet<Path> all = new TreeSet<>(logDirs);
        all.add(metadataLogDir);
        return Collections.unmodifiableSortedSet(all);
    }

    private static Path normal(Path path) {
        return path.toAbsolutePath().normalize();
    }
}
