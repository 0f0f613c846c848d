package io.krabka.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.fixture.gcs.GcsFixture;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ObjectStoreTieredStorageIT} through the {@code gcs} plugin (the real Google client in the broker) against
 * the project's GCS JSON API fixture; the test lists the bucket through the same JSON API.
 */
class GcsTieredStorageIT extends ObjectStoreTieredStorageIT {
    private static final String BUCKET = "krabka-it-tier";
    private static GcsFixture fixture;

    @BeforeAll
    static void startFixture() throws Exception {
        fixture = GcsFixture.start();
        fixture.createBucket(BUCKET, false, null);
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    @Override
    Map<String, String> tierSettings() {
        return Map.of(
                "remote.log.storage.manager.class.name",
                "gcs",
                "rsm.config.bucket",
                BUCKET,
                "rsm.config.prefix",
                PREFIX,
                "rsm.config.endpoint",
                fixture.endpoint(),
                "rsm.config.no.credentials",
                "true",
                "rsm.config.project.id",
                "krabka-it");
    }

    @Override
    List<String> keys(String prefix) throws Exception {
        List<String> keys = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        String pageToken = null;
        try (HttpClient http = HttpClient.newHttpClient()) {
            do {
                String query = "prefix=" + URLEncoder.encode(prefix, StandardCharsets.UTF_8)
                        + (pageToken == null
                                ? ""
                                : "&pageToken=" + URLEncoder.encode(pageToken, StandardCharsets.UTF_8));
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(
                                        URI.create(fixture.endpoint() + "/storage/v1/b/" + BUCKET + "/o?" + query))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new AssertionError(
                            "listing the bucket answered " + response.statusCode() + ": " + response.body());
                }
                JsonNode page = json.readTree(response.body());
                page.path("items").forEach(item -> keys.add(item.path("name").asText()));
                pageToken = page.path("nextPageToken").isMissingNode()
                        ? null
                        : page.path("nextPageToken").asText();
            } while (pageToken != null);
        }
        return keys;
    }
}
