package io.krabka.kernel.broker;

/**
 * The Fetch handler's settings.
 *
 * @param fetchMaxBytes {@code fetch.max.bytes}: the most bytes a consumer's fetch response holds, whatever the
 *                      request asks (Kafka's default 57671680, 55 MiB); the first batch is sent whole regardless
 */
public record FetchConfig(int fetchMaxBytes) {

    /** Kafka's defaults. */
    public static final FetchConfig DEFAULTS = new FetchConfig(55 * 1024 * 1024);

    /** Checks the value. */
    public FetchConfig {
        if (fetchMaxBytes < 0) {
            throw new IllegalArgumentException("fetch.max.bytes must be at least 0: " + fetchMaxBytes);
        }
    }
}
