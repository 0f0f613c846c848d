package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.controller.Controllers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Producer ids from the controller's blocks: unique across concurrent callers, managers and restarts. */
class ProducerIdManagerTest {

    @TempDir
    Path dir;

    @Test
    void idsAreUniqueAcrossCallersManagersAndRestarts() throws Exception {
        try (Controllers controllers = Controllers.formatAndStart(dir, Map.of())) {
            ProducerIdManager first = new ProducerIdManager(controllers.controller(), 1);
            assertEquals(0, first.generateProducerId().get(), "ids count up from 0");
            ProducerIdManager manager = new ProducerIdManager(controllers.controller(), 1);
            List<CompletableFuture<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 2500; i++) {
                ids.add(manager.generateProducerId());
            }
            Set<Long> unique = new HashSet<>();
            for (CompletableFuture<Long> id : ids) {
                unique.add(id.get());
            }
            assertEquals(2500, unique.size());
            assertEquals(
                    1000,
                    unique.stream().mapToLong(Long::longValue).min().orElseThrow(),
                    "a second manager starts at the next block");
            long before = controllers.controller().image().nextProducerId();
            ProducerIdManager afterRestart = new ProducerIdManager(controllers.restart(), 1);
            assertEquals(before, afterRestart.generateProducerId().get());
        }
    }
}
