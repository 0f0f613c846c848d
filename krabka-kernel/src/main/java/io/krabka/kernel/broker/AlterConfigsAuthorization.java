package io.krabka.kernel.broker;

import io.krabka.kernel.network.Request;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Which resources of an AlterConfigs or IncrementalAlterConfigs request the principal may not change, as Kafka's
 * controller decides ({@code ControllerApis.authorizeAlterResource}): ALTER_CONFIGS on the cluster for broker and
 * client-metrics resources (and, for IncrementalAlterConfigs, the broker's loggers), on the topic or on the group
 * otherwise. A resource named twice is left to the controller, which refuses duplicates before Kafka authorizes.
 */
final class AlterConfigsAuthorization {

    private AlterConfigsAuthorization() {}

    /**
     * The refusal of each resource, in order, or null where it may be changed (or is not authorized here).
     *
     * @param loggers whether broker loggers are authorized here (IncrementalAlterConfigs)
     */
    static <T> List<Errors> refusals(
            AuthHelper auth,
            Request request,
            List<T> resources,
            Function<T, Byte> type,
            Function<T, String> name,
            boolean loggers) {
        Map<String, Integer> counts = new HashMap<>();
        for (T resource : resources) {
            counts.merge(type.apply(resource) + "/" + name.apply(resource), 1, Integer::sum);
        }
        List<Errors> refusals = new ArrayList<>(resources.size());
        for (T resource : resources) {
            byte id = type.apply(resource);
            String resourceName = name.apply(resource);
            refusals.add(
                    counts.get(id + "/" + resourceName) > 1 ? null : refusal(auth, request, id, resourceName, loggers));
        }
        return refusals;
    }

    /** The resources not refused, in order: what the controller is asked. */
    static <T> List<T> allowed(List<T> resources, List<Errors> refusals) {
        List<T> allowed = new ArrayList<>(resources.size());
        for (int i = 0; i < resources.size(); i++) {
            if (refusals.get(i) == null) {
                allowed.add(resources.get(i));
            }
        }
        return allowed;
    }

    /**
     * The answers in the request's order, as Kafka reassembles them: each refused resource's refusal, and for the others
     * the controller's answers in turn (it answers one per resource, in order).
     */
    static <T, R> List<R> inRequestOrder(
            List<T> resources, List<Errors> refusals, Iterable<R> answered, BiFunction<T, Errors, R> refusal) {
        Iterator<R> next = answered.iterator();
        List<R> answers = new ArrayList<>(resources.size());
        for (int i = 0; i < resources.size(); i++) {
            Errors refused = refusals.get(i);
            answers.add(refused == null ? next.next() : refusal.apply(resources.get(i), refused));
        }
        return answers;
    }

    private static Errors refusal(AuthHelper auth, Request request, byte type, String name, boolean loggers) {
        ConfigResource.Type resourceType = ConfigResource.Type.forId(type);
        return switch (resourceType) {
            case BROKER, CLIENT_METRICS -> clusterRefusal(auth, request);
            case BROKER_LOGGER -> loggers ? clusterRefusal(auth, request) : null;
            case TOPIC ->
                auth.authorize(request, AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, name)
                        ? null
                        : Errors.TOPIC_AUTHORIZATION_FAILED;
            case GROUP ->
                auth.authorize(request, AclOperation.ALTER_CONFIGS, ResourceType.GROUP, name)
                        ? null
                        : Errors.GROUP_AUTHORIZATION_FAILED;
            default -> null;
        };
    }

    private static Errors clusterRefusal(AuthHelper auth, Request request) {
        return auth.authorize(request, AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER, Resource.CLUSTER_NAME)
                ? null
                : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }
}
