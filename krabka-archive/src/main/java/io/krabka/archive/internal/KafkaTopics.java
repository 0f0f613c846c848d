package io.krabka.archive.internal;

import java.util.regex.Pattern;

/** Kafka's rule for topic names, which keeps a topic from naming another partition's keys ("a/b", ".."). */
public final class KafkaTopics {

    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private KafkaTopics() {}

    /**
     * Checks a topic name.
     *
     * @throws IllegalArgumentException if it is not 1 to 249 of {@code [a-zA-Z0-9._-]}, or is {@code .} or {@code ..}
     */
    public static String requireLegal(String topic) {
        if (!LEGAL.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("not a legal Kafka topic name: \"" + topic + "\"");
        }
        return topic;
    }
}
