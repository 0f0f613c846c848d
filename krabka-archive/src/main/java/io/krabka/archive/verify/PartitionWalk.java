package io.krabka.archive.verify;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.manifest.ManifestBody;
import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.SegmentIdentity;
import io.krabka.archive.manifest.SegmentManifest;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoredObject;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The verification of one partition directory: its abandonment records judged, its manifests read and walked in
 * key (that is, offset) order until the first break, every object they name checked in the directory by its
 * recorded version and size (and, deep, its SHA-256), then everything left over sorted into abandoned copies and
 * orphans. One instance per directory, used by one thread.
 */
final class PartitionWalk {

    private static final String MANIFEST_DOT = "." + ArchiveLayout.MANIFEST_SUFFIX;
    private static final String ABANDONED_DOT = "." + ArchiveLayout.ABANDONED_SUFFIX;

    /** A manifest as read: parsed, or why not. */
    private sealed interface ManifestRead {}

    private record Parsed(String key, SegmentManifest manifest) implements ManifestRead {}

    private record Unreadable(String key, String reason) implements ManifestRead {}

    private final StoreReads reads;
    private final VerifyOptions options;
    private final ProgressCounter progress;
    private final String dirName;
    private final String dirKey;
    private final ManifestChain chain;
    private final List<OffsetGap> gaps = new ArrayList<>();
    private ObjectDigester digester;
    private long manifests;
    private long objectsChecked;
    private long bytesChecked;
    private long unsigned;
    private long untrusted;
    private long compliance;
    private ProtectionCount createPrecondition = ProtectionCount.NONE;
    private ProtectionCount retention = ProtectionCount.NONE;
    private long lastEndOffset = -1;
    private ChainBreak firstBreak;

    PartitionWalk(StoreReads reads, VerifyOptions options, ProgressCounter progress, String dirName) {
        this.reads = reads;
        this.options = options;
        this.progress = progress;
        this.dirName = dirName;
        this.dirKey = options.layout().keyPrefix() + dirName;
        this.chain = new ManifestChain(options.layout(), options.trustedKeys());
    }

    /**
     * Verifies the directory's objects; empty when a topic or partition filter leaves the directory out.
     *
     * @throws ArchiveUnreadableException if the store fails a read
     */
    Optional<PartitionVerifyReport> run(List<StoredObject> objects) throws ArchiveUnreadableException {
        List<String> keys = objects.stream().map(StoredObject::key).sorted().toList();
        AbandonmentScan abandonments = AbandonmentScan.of(
                keys.stream().filter(k -> k.endsWith(ABANDONED_DOT)).toList(),
                reads,
                options.layout(),
                options.trustedKeys());
        List<ManifestRead> manifestReads = new ArrayList<>();
        for (String key : keys) {
            if (key.endsWith(MANIFEST_DOT) && abandonments.covering(key).isEmpty()) {
                manifestReads.add(read(key));
            }
        }
        Optional<TopicIdPartition> partition = identity(manifestReads, abandonments);
        if (options.filtered() && !partition.map(this::selected).orElse(false)) {
            return Optional.empty();
        }
        for (ManifestRead manifest : manifestReads) {
            Optional<ChainBreak> broken = step(manifest);
            if (broken.isPresent()) {
                firstBreak = broken.get();
                break;
            }
        }
        return Optional.of(report(partition, keys, manifestReads, abandonments));
    }

    private ManifestRead read(String key) throws ArchiveUnreadableException {
        return switch (reads.document(key, ManifestJson.MAX_MANIFEST_BYTES)) {
            case StoreReads.Document.Missing missing -> new Unreadable(key, "the manifest is gone from the store");
            case StoreReads.Document.TooLarge large ->
                new Unreadable(
                        key,
                        "manifest object is " + large.size() + " bytes, above the " + ManifestJson.MAX_MANIFEST_BYTES
                                + " byte cap");
            case StoreReads.Document.Found found -> {
                try {
                    yield new Parsed(key, ManifestJson.read(found.bytes()));
                } catch (ArchiveFormatException e) {
                    yield new Unreadable(key, e.getMessage());
                }
            }
        };
    }

    /** Verifies one manifest and, if it holds, appends it to the chain; the break if it does not. */
    private Optional<ChainBreak> step(ManifestRead read) throws ArchiveUnreadableException {
        return switch (read) {
            case Unreadable unreadable ->
                Optional.of(new ChainBreak(unreadable.key(), Optional.empty(), unreadable.reason()));
            case Parsed parsed ->
                check(parsed)
                        .map(reason -> new ChainBreak(
                                parsed.key(),
                                Optional.of(parsed.manifest().body().chain().seq()),
                                reason));
        };
    }

    private Optional<String> check(Parsed parsed) throws ArchiveUnreadableException {
        SegmentManifest manifest = parsed.manifest();
        ManifestBody body = manifest.body();
        SegmentIdentity segment = body.segment();
        Optional<SignatureStatus> signature;
        switch (chain.check(parsed.key(), manifest)) {
            case ManifestChain.Step.Breaks breaks -> {
                return Optional.of(breaks.reason());
            }
            case ManifestChain.Step.Follows follows -> signature = follows.signature();
        }
        for (ObjectEntry entry : body.objects()) {
            Optional<String> wrong = checkObject(entry);
            if (wrong.isPresent()) {
                return wrong;
            }
        }
        if (signature.isEmpty()) {
            unsigned++;
        } else if (!signature.get().valid()) {
            untrusted++;
        }
        if (lastEndOffset >= 0 && segment.startOffset() > lastEndOffset + 1) {
            gaps.add(new OffsetGap(lastEndOffset + 1, segment.startOffset() - 1));
        }
        lastEndOffset = Math.max(lastEndOffset, segment.endOffset());
        chain.append(manifest);
        manifests++;
        return Optional.empty();
    }

    private Optional<String> checkObject(ObjectEntry entry) throws ArchiveUnreadableException {
        String key = entry.key();
        String name = key.startsWith(dirKey + "/") ? key.substring(dirKey.length() + 1) : null;
        if (name == null || name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            return Optional.of("object " + key + " is not in the manifest's partition directory " + dirKey);
        }
        String named = key + entry.versionId().map(v -> " (version " + v + ")").orElse("");
        Optional<StoredObject> stored = reads.head(key, entry.versionId());
        if (stored.isEmpty()) {
            return Optional.of("object " + named + " is missing");
        }
        if (stored.get().size() != entry.sizeBytes()) {
            return Optional.of("the manifest records a size of " + entry.sizeBytes() + " bytes for " + named
                    + ", the store holds " + stored.get().size());
        }
        if (options.deep()) {
            Optional<String> mismatch = checkDigest(entry, named);
            if (mismatch.isPresent()) {
                return mismatch;
            }
        }
        if (entry.createPrecondition()) {
            createPrecondition = createPrecondition.plus(key);
        }
        RetentionMode mode = stored.get().retention();
        if (mode != RetentionMode.NONE) {
            retention = retention.plus(key + " (" + mode
                    + stored.get().retainUntil().map(t -> " until " + t).orElse("") + ")");
            if (mode == RetentionMode.COMPLIANCE) {
                compliance++;
            }
        }
        objectsChecked++;
        progress.objectChecked();
        return Optional.empty();
    }

    private Optional<String> checkDigest(ObjectEntry entry, String named) throws ArchiveUnreadableException {
        if (digester == null) {
            digester = new ObjectDigester(progress);
        }
        Optional<InputStream> opened = reads.open(entry.key(), entry.versionId());
        if (opened.isEmpty()) {
            return Optional.of("object " + named + " is missing");
        }
        ObjectDigester.Hashed hashed;
        try (InputStream in = opened.get()) {
            hashed = digester.digest(in);
        } catch (IOException e) {
            throw reads.unreadable("reading " + named, e);
        }
        bytesChecked += hashed.bytes();
        if (!hashed.digest().equals(entry.sha256())) {
            return Optional.of(named + " hashes to " + hashed.digest() + ", the manifest records " + entry.sha256());
        }
        return Optional.empty();
    }

    /**
     * The partition the directory holds, by its manifests' bodies (the directory's name cannot be parsed: a base64
     * topic id holds '-'): the first body that places itself in this directory, else the first abandoned copy,
     * else any body, so that a directory of foreign manifests is still reported under their partition.
     */
    private Optional<TopicIdPartition> identity(List<ManifestRead> manifestReads, AbandonmentScan abandonments) {
        List<SegmentIdentity> bodies = manifestReads.stream()
                .filter(Parsed.class::isInstance)
                .map(r -> ((Parsed) r).manifest().body().segment())
                .toList();
        return bodies.stream()
                .filter(s -> options.layout()
                        .partitionDirectory(s.topic(), s.partition(), s.topicId())
                        .equals(dirKey))
                .findFirst()
                .map(s -> new TopicIdPartition(s.topicId(), s.topic(), s.partition()))
                .or(() -> abandonments.accepted().stream()
                        .findFirst()
                        .map(a -> a.record().segment())
                        .map(s -> new TopicIdPartition(s.topicId(), s.topic(), s.partition())))
                .or(() -> bodies.stream()
                        .findFirst()
                        .map(s -> new TopicIdPartition(s.topicId(), s.topic(), s.partition())));
    }

    private boolean selected(TopicIdPartition partition) {
        return options.topic().map(partition.topic()::equals).orElse(true)
                && options.partition().map(p -> p == partition.partition()).orElse(true);
    }

    private PartitionVerifyReport report(
            Optional<TopicIdPartition> partition,
            List<String> keys,
            List<ManifestRead> manifestReads,
            AbandonmentScan abandonments) {
        Set<String> named = new HashSet<>();
        for (ManifestRead manifest : manifestReads) {
            if (manifest instanceof Parsed parsed) {
                parsed.manifest().body().objects().forEach(entry -> named.add(entry.key()));
            }
        }
        Map<String, List<String>> abandonedObjects = new LinkedHashMap<>();
        abandonments.accepted().forEach(a -> abandonedObjects.put(a.key(), new ArrayList<>()));
        List<String> orphans = new ArrayList<>();
        for (String key : keys) {
            Optional<AbandonmentScan.Accepted> covering = abandonments.covering(key);
            if (covering.isPresent()) {
                abandonedObjects.get(covering.get().key()).add(key);
            } else if (!key.endsWith(MANIFEST_DOT) && !named.contains(key)) {
                orphans.add(key);
            }
        }
        List<AbandonedCopy> abandoned = abandonments.accepted().stream()
                .map(a -> new AbandonedCopy(
                        a.key(),
                        a.record().segment().segmentId(),
                        a.record().segment().startOffset(),
                        a.record().segment().endOffset(),
                        a.record().abandonedAtMs(),
                        abandonedObjects.get(a.key())))
                .toList();
        return new PartitionVerifyReport(
                dirName,
                partition,
                manifests,
                objectsChecked,
                bytesChecked,
                createPrecondition,
                retention,
                compliance,
                chain.epochs(),
                unsigned,
                untrusted,
                orphans,
                gaps,
                chain.tip(),
                Optional.ofNullable(firstBreak),
                abandoned,
                abandonments.rejected(),
                Optional.empty(),
                TailStatus.UNVERIFIED);
    }
}
