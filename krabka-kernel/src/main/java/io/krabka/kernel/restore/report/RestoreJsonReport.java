package io.krabka.kernel.restore.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A restore report as one pretty-printed JSON document in the original Krabka's shape (serde's snake_case names
 * of its {@code RestoreReport}): {@code {dry_run, log_dir, cluster_id, authentication, diskless, metadata,
 * partitions, skipped}}, plus Krabka's {@code remote_log_metadata}, {@code metadata.not_recovered},
 * {@code unrecognized_keys} and {@code unrecognized_sample}. {@code diskless} is always null: Krabka has no
 * diskless topics. Ids are in Kafka's form, absent values null.
 */
public final class RestoreJsonReport {
    private static final JsonFactory JSON = new JsonFactory();

    private RestoreJsonReport() {}

    /** The document, UTF-8. */
    public static byte[] write(RestoreReport report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(out).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            json.writeBooleanField("dry_run", report.dryRun());
            json.writeStringField("log_dir", report.logDir().toString());
            json.writeStringField("cluster_id", report.clusterId());
            json.writeFieldName("authentication");
            authentication(json, report.authentication());
            json.writeNullField("diskless");
            json.writeFieldName("metadata");
            metadata(json, report.metadata());
            json.writeFieldName("remote_log_metadata");
            remoteLogMetadata(json, report.remoteLogMetadata());
            json.writeArrayFieldStart("partitions");
            for (PartitionReport partition : report.partitions()) {
                partition(json, partition);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("skipped");
            for (SkippedSegment skipped : report.skipped()) {
                json.writeStartObject();
                json.writeStringField("topic", skipped.topic());
                json.writeNumberField("partition", skipped.partition());
                json.writeStringField("segment_id", skipped.segmentId().toString());
                json.writeStringField("reason", skipped.reason());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberField("unrecognized_keys", report.unrecognizedKeys());
            strings(json, "unrecognized_sample", report.unrecognizedSample());
            json.writeEndObject();
        } catch (IOException e) {
            // A generator over a byte array fails only on a bug.
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void authentication(JsonGenerator json, Optional<AuthenticationReport> authentication)
            throws IOException {
        if (authentication.isEmpty()) {
            json.writeNull();
            return;
        }
        AuthenticationReport auth = authentication.get();
        json.writeStartObject();
        json.writeNumberField("partitions", auth.partitions());
        json.writeNumberField("manifests", auth.manifests());
        json.writeNumberField("objects", auth.objects());
        strings(json, "trusted_keys", auth.trustedKeys());
        json.writeObjectFieldStart("chain_heads");
        for (Map.Entry<String, String> head : auth.chainHeads().entrySet()) {
            json.writeStringField(head.getKey(), head.getValue());
        }
        json.writeEndObject();
        json.writeBooleanField("tail_truncation_protected", auth.tailTruncationProtected());
        json.writeEndObject();
    }

    private static void metadata(JsonGenerator json, MetadataRestoreReport metadata) throws IOException {
        json.writeStartObject();
        json.writeStringField("snapshot", metadata.snapshot().orElse(null));
        json.writeNumberField("topic_configs", metadata.topicConfigs());
        json.writeNumberField("access_control_entries", metadata.accessControlEntries());
        json.writeNumberField("client_quotas", metadata.clientQuotas());
        json.writeNumberField("scram_credentials", metadata.scramCredentials());
        json.writeNumberField("feature_levels", metadata.featureLevels());
        strings(json, "topics_without_configuration", metadata.topicsWithoutConfiguration());
        strings(json, "not_recovered", metadata.notRecovered());
        json.writeEndObject();
    }

    private static void remoteLogMetadata(JsonGenerator json, RemoteLogMetadataReport rlmm) throws IOException {
        json.writeStartObject();
        json.writeStringField("snapshot", rlmm.snapshot().orElse(null));
        json.writeNumberField("deleted_segments_left_out", rlmm.deletedSegmentsLeftOut());
        strings(json, "notes", rlmm.notes());
        json.writeEndObject();
    }

    private static void partition(JsonGenerator json, PartitionReport partition) throws IOException {
        json.writeStartObject();
        json.writeStringField("topic", partition.topic());
        json.writeNumberField("partition", partition.partition());
        json.writeStringField("topic_id", partition.topicId().toString());
        json.writeArrayFieldStart("segments");
        for (SegmentOutcome segment : partition.segments()) {
            json.writeStartObject();
            json.writeStringField("segment_id", segment.segmentId().toString());
            json.writeNumberField("base_offset", segment.baseOffset());
            json.writeNumberField("end_offset", segment.endOffset());
            json.writeNumberField("batches_kept", segment.batchesKept());
            json.writeNumberField("batches_rewritten", segment.batchesRewritten());
            json.writeNumberField("batches_emptied", segment.batchesEmptied());
            json.writeNumberField("records_kept", segment.recordsKept());
            json.writeNumberField("records_dropped", segment.recordsDropped());
            json.writeNumberField("bytes_written", segment.bytesWritten());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void strings(JsonGenerator json, String field, List<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }
}
