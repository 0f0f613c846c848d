/**
 * Test support, never shipped: a fixture that serves the part of the Google Cloud Storage JSON API that the
 * google-cloud-storage client uses for Krabka's gcs plugin, on 127.0.0.1. It is not Google's service; its README says
 * what it implements. {@link io.krabka.fixture.gcs.GcsFixture} starts and stops it.
 */
module io.krabka.fixture.gcs {
    requires jdk.httpserver;
    requires com.fasterxml.jackson.databind;

    exports io.krabka.fixture.gcs;
}
