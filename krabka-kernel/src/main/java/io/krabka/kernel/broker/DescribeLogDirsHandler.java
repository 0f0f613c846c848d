package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeLogDirsRequest;

/**
 * Answers DescribeLogDirs as Kafka's {@code ReplicaManager.describeLogDirs}: every configured log directory, by its
 * absolute path; a live one with its total and usable bytes and the requested partitions it holds (all of them for a
 * request naming no topics), each with its size (its local segments' bytes) and an offset lag of 0 (a leader lags
 * nobody); an offline one with KAFKA_STORAGE_ERROR and nothing else, as is one whose file system cannot be asked.
 * DESCRIBE on the cluster is needed (CLUSTER_AUTHORIZATION_FAILED and no directories otherwise).
 */
public final class DescribeLogDirsHandler implements ApiHandler {
    private static final System.Logger LOG = System.getLogger(DescribeLogDirsHandler.class.getName());

    private final AuthHelper auth;
    private final LogManager logManager;

    /** A handler describing {@code logManager}'s directories. */
    public DescribeLogDirsHandler(AuthHelper auth, LogManager logManager) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.logManager = Objects.requireNonNull(logManager, "logManager");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_LOG_DIRS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        if (!auth.authorizeCluster(request, AclOperation.DESCRIBE)) {
            return CompletableFuture.completedFuture(Response.send(new DescribeLogDirsResponseData()
                    .setThrottleTimeMs(0)
                    .setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())));
        }
        DescribeLogDirsRequestData data = ((DescribeLogDirsRequest) request.body()).data();
        Predicate<TopicPartition> requested = requested(data);
        Map<Path, List<UnifiedLog>> logsByDir = logManager.allLogs().stream()
                .filter(log -> requested.test(log.topicPartition()))
                .collect(Collectors.groupingBy(UnifiedLog::parentDir));
        List<DescribeLogDirsResult> results = new ArrayList<>();
        for (Path dir : logManager.logDirs()) {
            results.add(describe(dir, logsByDir.getOrDefault(dir, List.of())));
        }
        return CompletableFuture.completedFuture(Response.send(new DescribeLogDirsResponseData()
                .setThrottleTimeMs(0)
                .setErrorCode(Errors.NONE.code())
                .setResults(results)));
    }

    private static Predicate<TopicPartition> requested(DescribeLogDirsRequestData data) {
        if (data.topics() == null) {
            return partition -> true;
        }
        Set<TopicPartition> partitions = data.topics().stream()
                .flatMap(topic -> topic.partitions().stream().map(index -> new TopicPartition(topic.topic(), index)))
                .collect(Collectors.toSet());
        return partitions::contains;
    }

    private DescribeLogDirsResult describe(Path dir, List<UnifiedLog> logs) {
        DescribeLogDirsResult result = new DescribeLogDirsResult().setLogDir(dir.toString());
        if (!logManager.isLogDirOnline(dir)) {
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        try {
            FileStore store = Files.getFileStore(dir);
            result.setTotalBytes(bytes(store.getTotalSpace())).setUsableBytes(bytes(store.getUsableSpace()));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Unable to describe replica dirs for " + dir, e);
            return result.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        Map<String, List<DescribeLogDirsPartition>> byTopic = new TreeMap<>();
        for (UnifiedLog log : logs) {
            byTopic.computeIfAbsent(log.topicPartition().topic(), topic -> new ArrayList<>())
                    .add(new DescribeLogDirsPartition()
                            .setPartitionIndex(log.topicPartition().partition())
                            .setPartitionSize(log.size())
                            .setOffsetLag(0)
                            .setIsFutureKey(false));
        }
        byTopic.forEach((topic, partitions) ->
                result.topics().add(new DescribeLogDirsTopic().setName(topic).setPartitions(partitions)));
        return result.setErrorCode(Errors.NONE.code());
    }

    // A file system larger than a long's range reports a negative size: Kafka answers Long.MAX_VALUE.
    private static long bytes(long space) {
        return space < 0 ? Long.MAX_VALUE : space;
    }
}
