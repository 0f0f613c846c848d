package io.krabka.kernel.format;

import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.kernel.metadata.MetadataRecord;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Formats a node's log directories as Kafka 4.4's {@code kafka-storage format} does: each gets a
 * {@code meta.properties} (version 1: cluster, node and directory ids), and the metadata log directory also the
 * {@link BootstrapSnapshot} with the cluster's feature levels and initial controllers.
 *
 * <p>Checks come first, in Kafka's order, and nothing is written unless all pass: the feature levels, the voters,
 * then the directories (a formatted one must belong to this cluster and node, and is refused unless formatted
 * directories are to be skipped; an unformatted one must hold nothing foreign). Then the snapshot is written,
 * then the data directories' {@code meta.properties}, the metadata log directory's last: a node is formatted
 * once that file is there. When a write fails, every {@code meta.properties} this run wrote is removed again, so
 * a failed format leaves no directory looking formatted, and formatting again works.
 */
public final class Formatter {
    private final Clock clock;

    /** A formatter stamping the snapshot with {@code clock}'s time. */
    public Formatter(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Formats what {@code spec} names: {@code write(plan(spec))}.
     *
     * @throws FormatException naming the first problem found, before anything was written, or the write that failed
     */
    public FormatResult format(FormatSpec spec) throws FormatException {
        return write(plan(spec));
    }

    /**
     * Checks what {@code spec} names and decides each directory's id, writing nothing: a restore plans the node
     * first, fills the directories, then writes the plan, so the {@code meta.properties} comes last.
     *
     * @throws FormatException naming the first problem found
     */
    public FormatPlan plan(FormatSpec spec) throws FormatException {
        BootstrapFeatures features = BootstrapFeatures.resolve(spec.releaseVersion(), spec.features());
        Optional<Uuid> voterDirectoryId = voterDirectoryId(spec);
        SortedMap<Path, MetaProperties> formatted = new TreeMap<>();
        List<Path> unformatted = new ArrayList<>();
        for (Path dir : spec.directories()) {
            LogDirectories.inspect(dir, dir.equals(spec.metadataLogDir()))
                    .ifPresentOrElse(props -> formatted.put(dir, props), () -> unformatted.add(dir));
        }
        Set<Uuid> taken = verify(formatted, spec);
        if (!formatted.isEmpty() && !spec.ignoreFormatted()) {
            throw new FormatException(
                    FormatException.Kind.ALREADY_FORMATTED,
                    "Log directory " + formatted.firstKey()
                            + " is already formatted. Use --ignore-formatted to ignore this directory and format the others.");
        }
        return new FormatPlan(
                spec,
                new FormatResult(
                        features, plan(spec, unformatted, voterDirectoryId, taken), List.copyOf(formatted.keySet())),
                bootstrapRecords(spec, features));
    }

    /**
     * Writes a plan: the bootstrap snapshot, then each directory's {@code meta.properties}, the metadata log
     * directory's last. The directories are not checked again.
     *
     * @throws FormatException naming the write that failed; no {@code meta.properties} is left behind
     */
    public FormatResult write(FormatPlan plan) throws FormatException {
        write(
                plan.spec(),
                plan.result().features(),
                plan.bootstrapRecords(),
                plan.result().formatted());
        return plan.result();
    }

    // Kafka's Formatter: SCRAM credentials need metadata.version 3.5-IV2; an ACL is checked as CreateAcls checks it.
    private static List<MetadataRecord> bootstrapRecords(FormatSpec spec, BootstrapFeatures features)
            throws FormatException {
        MetadataVersion version = features.metadataVersion();
        if (!spec.scramArguments().isEmpty() && version.compareTo(MetadataVersion.IBP_3_5_IV2) < 0) {
            throw new FormatException(
                    FormatException.Kind.INVALID_BOOTSTRAP_RECORD,
                    "SCRAM is only supported in " + MetadataVersion.FEATURE_NAME + " " + MetadataVersion.IBP_3_5_IV2
                            + " or later.");
        }
        List<MetadataRecord> records = new ArrayList<>();
        try {
            for (String argument : spec.scramArguments()) {
                records.add(ScramArgument.parse(argument));
            }
            for (String argument : spec.aclArguments()) {
                records.add(AclArgument.parse(argument, version.compareTo(MetadataVersion.IBP_4_4_IV1) >= 0));
            }
        } catch (IllegalArgumentException e) {
            throw new FormatException(FormatException.Kind.INVALID_BOOTSTRAP_RECORD, e.getMessage(), e);
        }
        return records;
    }

    // The directory id the voter set gives this node, checked against --directory-id.
    private static Optional<Uuid> voterDirectoryId(FormatSpec spec) throws FormatException {
        if (!(spec.quorum() instanceof InitialQuorum.InitialControllers(DynamicVoters voters))) {
            return Optional.empty();
        }
        DynamicVoter self = voters.voters().get(spec.nodeId());
        if (self == null) {
            return Optional.empty();
        }
        if (DirectoryId.isReserved(self.directoryId())) {
            throw new FormatException(
                    FormatException.Kind.INVALID_VOTERS,
                    "--initial-controllers gives node " + spec.nodeId() + " the directory id " + self.directoryId()
                            + ", one of the 100 ids Kafka reserves");
        }
        if (spec.directoryId().isPresent() && !spec.directoryId().get().equals(self.directoryId())) {
            throw new FormatException(
                    FormatException.Kind.INVALID_VOTERS,
                    "--directory-id " + spec.directoryId().get()
                            + " differs from the directory id " + self.directoryId()
                            + " that --initial-controllers gives node "
                            + spec.nodeId());
        }
        return Optional.of(self.directoryId());
    }

    // Kafka's MetaPropertiesEnsemble.verify over the formatted directories; returns their directory ids.
    private static Set<Uuid> verify(SortedMap<Path, MetaProperties> formatted, FormatSpec spec) throws FormatException {
        Map<Uuid, Path> seen = new HashMap<>();
        for (Map.Entry<Path, MetaProperties> entry : formatted.entrySet()) {
            Path file = entry.getKey().resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
            MetaProperties props = entry.getValue();
            if (!props.clusterId().equals(spec.clusterId())) {
                throw conflict("Invalid cluster.id in: " + file + ". Expected " + spec.clusterId() + ", but read "
                        + props.clusterId());
            }
            if (props.nodeId() != spec.nodeId()) {
                throw conflict("Stored node id " + props.nodeId() + " doesn't match previous node id " + spec.nodeId()
                        + " in " + file + ". If you moved your data, make sure your configured node id matches. If you "
                        + "intend to create a new node, you should remove all data in your data directories.");
            }
            if (props.directoryId().isPresent()) {
                Uuid id = props.directoryId().get();
                if (DirectoryId.isReserved(id)) {
                    throw conflict("Invalid reserved directory ID " + id + " found in " + entry.getKey());
                }
                Path previous = seen.put(id, entry.getKey());
                if (previous != null) {
                    throw conflict("Duplicate directory ID " + id + " found. It was the ID of " + previous
                            + ", but also of " + entry.getKey());
                }
            }
        }
        return seen.keySet();
    }

    private static List<FormattedDirectory> plan(
            FormatSpec spec, List<Path> unformatted, Optional<Uuid> voterDirectoryId, Set<Uuid> taken)
            throws FormatException {
        Set<Uuid> used = new HashSet<>(taken);
        Optional<FormattedDirectory> metadata = Optional.empty();
        if (unformatted.contains(spec.metadataLogDir())) {
            Uuid id = voterDirectoryId.or(spec::directoryId).orElseGet(() -> DirectoryId.random(taken));
            if (!used.add(id)) {
                throw conflict("Directory id " + id + " for " + spec.metadataLogDir()
                        + " is already the id of another log directory of this node");
            }
            boolean voter = spec.quorum() instanceof InitialQuorum.Standalone || voterDirectoryId.isPresent();
            metadata = Optional.of(new FormattedDirectory(
                    spec.metadataLogDir(),
                    voter
                            ? DirectoryType.DYNAMIC_METADATA_VOTER_DIRECTORY
                            : DirectoryType.DYNAMIC_METADATA_NON_VOTER_DIRECTORY,
                    id));
        }
        // Data directories first, the metadata log directory last: the order of writing.
        List<FormattedDirectory> plan = new ArrayList<>();
        for (Path dir : unformatted) {
            if (!dir.equals(spec.metadataLogDir())) {
                Uuid id = DirectoryId.random(used);
                used.add(id);
                plan.add(new FormattedDirectory(dir, DirectoryType.LOG_DIRECTORY, id));
            }
        }
        metadata.ifPresent(plan::add);
        return plan;
    }

    private void write(
            FormatSpec spec,
            BootstrapFeatures features,
            List<MetadataRecord> bootstrapRecords,
            List<FormattedDirectory> plan)
            throws FormatException {
        List<Path> written = new ArrayList<>();
        Path current = spec.metadataLogDir();
        try {
            for (FormattedDirectory dir : plan) {
                current = dir.path();
                Files.createDirectories(dir.path());
                if (dir.path().equals(spec.metadataLogDir())) {
                    BootstrapSnapshot.write(
                            dir.path(),
                            BootstrapSnapshot.encode(
                                    clock.millis(),
                                    features,
                                    bootstrapRecords,
                                    voters(spec, dir.directoryId()),
                                    spec.controllerListenerName()));
                }
                Path file = dir.path().resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
                new MetaProperties(spec.clusterId(), spec.nodeId(), Optional.of(dir.directoryId())).write(file);
                written.add(file);
            }
        } catch (IOException | RuntimeException e) {
            for (Path file : written) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw new FormatException(FormatException.Kind.IO_ERROR, "Formatting " + current + " failed: " + e, e);
        }
    }

    private static Optional<DynamicVoters> voters(FormatSpec spec, Uuid metadataDirectoryId) {
        return switch (spec.quorum()) {
            case InitialQuorum.Standalone(String host, int port) ->
                Optional.of(
                        new DynamicVoters(List.of(new DynamicVoter(spec.nodeId(), host, port, metadataDirectoryId))));
            case InitialQuorum.InitialControllers(DynamicVoters voters) -> Optional.of(voters);
            case InitialQuorum.NoInitialControllers() -> Optional.empty();
        };
    }

    private static FormatException conflict(String message) {
        return new FormatException(FormatException.Kind.CONFLICT, message);
    }
}
