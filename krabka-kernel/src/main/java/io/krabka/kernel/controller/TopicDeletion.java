package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.RemoveTopicRecord;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;

/**
 * Topic deletion as Kafka's {@code ControllerApis.deleteTopics} decides it: topics by name (v0-5, and v6 entries
 * with a name) or by id (v6), each at most once, with Kafka's errors for duplicates, entries naming both or
 * neither, unknown names and ids; a {@code RemoveTopicRecord} for each topic deleted. No authorizer: every topic
 * may be described and deleted.
 */
final class TopicDeletion {

    private TopicDeletion() {}

    static ControllerResult<DeleteTopicsResponseData> deleteTopics(
            MetadataImage image, DeleteTopicsRequestData request) {
        DeleteTopicsResponseData response = new DeleteTopicsResponseData();
        Set<String> names = new LinkedHashSet<>();
        Set<String> duplicateNames = new LinkedHashSet<>();
        Set<Uuid> ids = new LinkedHashSet<>();
        Set<Uuid> duplicateIds = new LinkedHashSet<>();
        request.topicNames().forEach(name -> addOnce(name, names, duplicateNames));
        for (DeleteTopicState topic : request.topics()) {
            Uuid id = WireUuids.fromWire(topic.topicId());
            if (topic.name() == null) {
                if (id.equals(Uuid.ZERO_UUID)) {
                    add(
                            response,
                            null,
                            Uuid.ZERO_UUID,
                            new ApiError(Errors.INVALID_REQUEST, "Neither topic name nor id were specified."));
                } else {
                    addOnce(id, ids, duplicateIds);
                }
            } else if (id.equals(Uuid.ZERO_UUID)) {
                addOnce(topic.name(), names, duplicateNames);
            } else {
                add(
                        response,
                        topic.name(),
                        id,
                        new ApiError(Errors.INVALID_REQUEST, "You may not specify both topic name and topic id."));
            }
        }
        duplicateNames.forEach(name ->
                add(response, name, Uuid.ZERO_UUID, new ApiError(Errors.INVALID_REQUEST, "Duplicate topic name.")));
        duplicateIds.forEach(
                id -> add(response, null, id, new ApiError(Errors.INVALID_REQUEST, "Duplicate topic id.")));

        Map<Uuid, String> toDelete = new LinkedHashMap<>();
        for (Uuid id : ids) {
            Optional<TopicImage> topic = image.topic(id);
            if (topic.isEmpty()) {
                add(response, null, id, new ApiError(Errors.UNKNOWN_TOPIC_ID));
            } else {
                toDelete.put(id, topic.get().name());
            }
        }
        Set<Uuid> reported = new HashSet<>();
        for (String name : names) {
            Optional<TopicImage> topic = image.topic(name);
            if (topic.isEmpty()) {
                add(response, name, Uuid.ZERO_UUID, new ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION));
            } else if (toDelete.putIfAbsent(topic.get().id(), name) != null
                    || reported.contains(topic.get().id())) {
                toDelete.remove(topic.get().id());
                reported.add(topic.get().id());
                add(
                        response,
                        name,
                        topic.get().id(),
                        new ApiError(
                                Errors.INVALID_REQUEST,
                                "The provided topic name maps to an ID that was already supplied."));
            }
        }
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        toDelete.forEach((id, name) -> {
            records.add(new MetadataRecordAndVersion(new RemoveTopicRecord(id), (short) 0));
            add(response, name, id, ApiError.NONE);
        });
        return new ControllerResult<>(records, response);
    }

    private static <T> void addOnce(T value, Set<T> values, Set<T> duplicates) {
        if (duplicates.contains(value) || !values.add(value)) {
            duplicates.add(value);
            values.remove(value);
        }
    }

    private static void add(DeleteTopicsResponseData response, String name, Uuid id, ApiError error) {
        response.responses()
                .add(new DeletableTopicResult()
                        .setName(name)
                        .setTopicId(WireUuids.toWire(id))
                        .setErrorCode(error.error().code())
                        .setErrorMessage(error.message()));
    }
}
