package io.krabka.kernel.restore.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** The JSON report, read back with Jackson: the original's field names and Krabka's additions, with their values. */
class RestoreJsonReportTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode render(RestoreReport report) throws Exception {
        return MAPPER.readTree(RestoreJsonReport.write(report));
    }

    private static List<String> fieldNames(JsonNode node) {
        return StreamSupport.stream(((Iterable<String>) node::fieldNames).spliterator(), false)
                .toList();
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false)
                .map(JsonNode::asText)
                .toList();
    }

    @Test
    void theTopLevelHasTheOriginalsFieldsThenKrabkasInOrder() throws Exception {
        assertEquals(
                List.of(
                        "dry_run",
                        "log_dir",
                        "cluster_id",
                        "authentication",
                        "diskless",
                        "metadata",
                        "remote_log_metadata",
                        "partitions",
                        "skipped",
                        "unrecognized_keys",
                        "unrecognized_sample"),
                fieldNames(render(Reports.full())));
    }

    @Test
    void everyValueOfAFullRestore() throws Exception {
        JsonNode root = render(Reports.full());
        assertEquals(false, root.path("dry_run").asBoolean(true));
        assertEquals("/var/krabka/data", root.path("log_dir").asText());
        assertEquals("MkU3OEVBNTcwNTJENDM2Qk", root.path("cluster_id").asText());
        assertTrue(root.path("diskless").isNull());

        JsonNode auth = root.path("authentication");
        assertEquals(
                List.of(
                        "partitions",
                        "manifests",
                        "objects",
                        "trusted_keys",
                        "chain_heads",
                        "tail_truncation_protected"),
                fieldNames(auth));
        assertEquals(1, auth.path("partitions").asInt());
        assertEquals(2, auth.path("manifests").asInt());
        assertEquals(10, auth.path("objects").asInt());
        assertEquals(List.of("worm-2026-q3"), texts(auth.path("trusted_keys")));
        assertEquals(
                "ab".repeat(32),
                auth.path("chain_heads").path("orders-0-AAAAAAAAAAAAAAAAAAAAAQ").asText());
        assertEquals(false, auth.path("tail_truncation_protected").asBoolean(true));

        JsonNode metadata = root.path("metadata");
        assertEquals(
                List.of(
                        "snapshot",
                        "topic_configs",
                        "access_control_entries",
                        "client_quotas",
                        "scram_credentials",
                        "feature_levels",
                        "topics_without_configuration",
                        "not_recovered"),
                fieldNames(metadata));
        assertEquals(
                "/backup/00000000000000000100-0000000001.checkpoint",
                metadata.path("snapshot").asText());
        assertEquals(
                List.of(3, 4, 5, 6, 7),
                List.of(
                        metadata.path("topic_configs").asInt(),
                        metadata.path("access_control_entries").asInt(),
                        metadata.path("client_quotas").asInt(),
                        metadata.path("scram_credentials").asInt(),
                        metadata.path("feature_levels").asInt()));
        assertEquals(List.of("payments"), texts(metadata.path("topics_without_configuration")));
        assertEquals(
                List.of("consumer group offsets: restore them with your own tooling"),
                texts(metadata.path("not_recovered")));

        JsonNode rlmm = root.path("remote_log_metadata");
        assertEquals("/backup/rlmm.snapshot", rlmm.path("snapshot").asText());
        assertEquals(2, rlmm.path("deleted_segments_left_out").asInt());
        assertEquals(List.of("topic audit is in the snapshot but not in the archive"), texts(rlmm.path("notes")));

        JsonNode partitions = root.path("partitions");
        assertEquals(2, partitions.size());
        JsonNode first = partitions.get(0);
        assertEquals(List.of("topic", "partition", "topic_id", "segments"), fieldNames(first));
        assertEquals("orders", first.path("topic").asText());
        assertEquals(0, first.path("partition").asInt(-1));
        assertEquals(Reports.TOPIC_ID.toString(), first.path("topic_id").asText());
        JsonNode segment = first.path("segments").get(1);
        assertEquals(
                List.of(
                        "segment_id",
                        "base_offset",
                        "end_offset",
                        "batches_kept",
                        "batches_rewritten",
                        "batches_emptied",
                        "records_kept",
                        "records_dropped",
                        "bytes_written"),
                fieldNames(segment));
        assertEquals(
                Reports.SECOND_SEGMENT.toString(), segment.path("segment_id").asText());
        assertEquals(1_234, segment.path("base_offset").asLong());
        assertEquals(12_345_678, segment.path("end_offset").asLong());
        assertEquals(900, segment.path("batches_kept").asLong());
        assertEquals(12_344_445, segment.path("records_kept").asLong());
        assertEquals(4_000_000, segment.path("bytes_written").asLong());
        JsonNode firstSegment = first.path("segments").get(0);
        assertEquals(
                List.of(2L, 1L, 34L),
                List.of(
                        firstSegment.path("batches_rewritten").asLong(),
                        firstSegment.path("batches_emptied").asLong(),
                        firstSegment.path("records_dropped").asLong()));
        assertEquals(0, partitions.get(1).path("segments").size());

        JsonNode skipped = root.path("skipped").get(0);
        assertEquals(List.of("topic", "partition", "segment_id", "reason"), fieldNames(skipped));
        assertEquals(
                Reports.SKIPPED_SEGMENT.toString(), skipped.path("segment_id").asText());
        assertEquals(
                "batch at byte 64 fails its CRC-32C", skipped.path("reason").asText());

        assertEquals(3, root.path("unrecognized_keys").asLong());
        assertEquals(
                List.of("stray.txt", "orders-0-AAAAAAAAAAAAAAAAAAAAAQ/notes"), texts(root.path("unrecognized_sample")));
    }

    @Test
    void absentPartsAreNull() throws Exception {
        JsonNode root = render(Reports.bare());
        assertEquals(true, root.path("dry_run").asBoolean(false));
        assertTrue(root.path("authentication").isNull());
        assertTrue(root.path("metadata").path("snapshot").isNull());
        assertTrue(root.path("remote_log_metadata").path("snapshot").isNull());
        assertEquals(0, root.path("partitions").size());
        assertEquals(0, root.path("skipped").size());
    }

    @Test
    void theDocumentIsPrettyPrinted() {
        String json = new String(RestoreJsonReport.write(Reports.bare()), StandardCharsets.UTF_8);
        assertTrue(json.lines().count() > 10, json);
        assertTrue(json.contains("\n  \"dry_run\" : true"), json);
    }
}
