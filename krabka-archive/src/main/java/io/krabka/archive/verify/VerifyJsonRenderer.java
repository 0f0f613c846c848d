package io.krabka.archive.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.archive.internal.Uuids;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.objectstore.IncompleteUpload;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict and report as one JSON document, snake_case as the original's report types serialise: {@code
 * {"verdict": {grade, summary, findings: [{kind, line}]}, "report": {location, prefix, deep, partitions: [...],
 * global_orphan_objects, incomplete_uploads, unmatched_heads}}}. Heads are hex, UUIDs hyphenated, absent values null.
 */
public final class VerifyJsonRenderer {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private VerifyJsonRenderer() {}

    /** The document, compact. */
    public static byte[] write(ArchiveVerifyReport report, ArchiveVerdict verdict) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode v = root.putObject("verdict");
        v.put("grade", verdict.grade().name().toLowerCase(Locale.ROOT));
        v.put("summary", verdict.summary());
        ArrayNode findings = v.putArray("findings");
        verdict.findings()
                .forEach(f -> findings.addObject().put("kind", f.kind()).put("line", f.line()));
        ObjectNode r = root.putObject("report");
        r.put("location", report.location());
        r.put("prefix", report.prefix());
        r.put("deep", report.deep());
        ArrayNode partitions = r.putArray("partitions");
        report.partitions().forEach(p -> partition(partitions.addObject(), p));
        strings(r.putArray("global_orphan_objects"), report.globalOrphanObjects());
        ArrayNode uploads = r.putArray("incomplete_uploads");
        for (IncompleteUpload upload : report.incompleteUploads()) {
            ObjectNode u = uploads.addObject().put("key", upload.key()).put("upload_id", upload.uploadId());
            u.put("initiated", upload.initiated().map(Object::toString).orElse(null));
        }
        ArrayNode unmatched = r.putArray("unmatched_heads");
        report.unmatchedHeads()
                .forEach(h -> unmatched
                        .addObject()
                        .put("partition_dir", h.partitionDir().orElse(null))
                        .put("expected", h.expected().hex()));
        try {
            return MAPPER.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            // A tree of strings, numbers and booleans always serialises.
            throw new UncheckedIOException(e);
        }
    }

    private static void partition(ObjectNode node, PartitionVerifyReport p) {
        node.put("partition_dir", p.partitionDir());
        node.put("topic", p.partition().map(TopicIdPartition::topic).orElse(null));
        node.put(
                "topic_id",
                p.partition().map(t -> Uuids.hyphenated(t.topicId())).orElse(null));
        if (p.partition().isPresent()) {
            node.put("partition", p.partition().get().partition());
        } else {
            node.putNull("partition");
        }
        node.put("manifests", p.manifests());
        node.put("objects_checked", p.objectsChecked());
        node.put("bytes_checked", p.bytesChecked());
        protection(node.putObject("create_precondition_objects"), p.createPreconditionObjects());
        protection(node.putObject("bucket_retention_objects"), p.bucketRetentionObjects());
        node.put("compliance_retention_objects", p.complianceRetentionObjects());
        ArrayNode epochs = node.putArray("epochs");
        p.epochs()
                .forEach(e -> epochs.addObject()
                        .put("epoch_id", Uuids.hyphenated(e.epochId()))
                        .put("first_seq", unsigned(e.firstSeq()))
                        .put("last_seq", unsigned(e.lastSeq()))
                        .put("start_offset", e.startOffset())
                        .put("end_offset", e.endOffset()));
        node.put("unsigned_manifests", p.unsignedManifests());
        node.put("untrusted_manifests", p.untrustedManifests());
        strings(node.putArray("orphan_objects"), p.orphanObjects());
        ArrayNode gaps = node.putArray("offset_gaps");
        p.offsetGaps()
                .forEach(g ->
                        gaps.addObject().put("first_missing", g.firstMissing()).put("last_missing", g.lastMissing()));
        node.put("head", hex(p.head()));
        node.put("ok", p.ok());
        if (p.firstBreak().isPresent()) {
            ChainBreak b = p.firstBreak().get();
            ObjectNode brk = node.putObject("first_break").put("key", b.key());
            if (b.seq().isPresent()) {
                brk.put("seq", unsigned(b.seq().get()));
            } else {
                brk.putNull("seq");
            }
            brk.put("reason", b.reason());
        } else {
            node.putNull("first_break");
        }
        ArrayNode abandoned = node.putArray("abandoned_copies");
        p.abandonedCopies()
                .forEach(c -> strings(
                        abandoned
                                .addObject()
                                .put("record_key", c.recordKey())
                                .put("segment_id", Uuids.hyphenated(c.segmentId()))
                                .put("start_offset", c.startOffset())
                                .put("end_offset", c.endOffset())
                                .put("abandoned_at_ms", c.abandonedAtMs())
                                .putArray("objects"),
                        c.objects()));
        ArrayNode rejected = node.putArray("rejected_abandonment_records");
        p.rejectedAbandonmentRecords()
                .forEach(x -> rejected.addObject().put("key", x.key()).put("reason", x.reason()));
        node.put("expected_head", hex(p.expectedHead()));
        node.put("tail", p.tail().name().toLowerCase(Locale.ROOT));
    }

    private static void protection(ObjectNode node, ProtectionCount count) {
        node.put("count", count.count());
        node.put("sample", count.sample().orElse(null));
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static String hex(Optional<ChainHead> head) {
        return head.map(ChainHead::hex).orElse(null);
    }

    private static BigInteger unsigned(long bits) {
        return new BigInteger(Long.toUnsignedString(bits));
    }
}
