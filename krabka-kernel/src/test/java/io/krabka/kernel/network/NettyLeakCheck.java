package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Netty's leak detection at paranoid, with every leak report collected: a test class fails if a buffer it made
 * the server allocate was garbage-collected without being released. Installed before the first buffer exists (the
 * detectors are made when Netty's buffer classes load).
 */
final class NettyLeakCheck implements AfterAllCallback {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
                ResourceLeakDetector<T> detector = new ResourceLeakDetector<>(resource, samplingInterval);
                detector.setLeakListener((type, records) -> LEAKS.add(type + ": " + records));
                return detector;
            }

            @Deprecated
            @Override
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                    Class<T> resource, int samplingInterval, long maxActive) {
                return newResourceLeakDetector(resource, samplingInterval);
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        // A leak is reported when a later allocation finds the collected buffer on the reference queue.
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            List<ByteBuf> probes = new ArrayList<>();
            for (int j = 0; j < 16; j++) {
                probes.add(PooledByteBufAllocator.DEFAULT.buffer(8));
            }
            probes.forEach(ByteBuf::release);
        }
        List<String> leaks = List.copyOf(LEAKS);
        LEAKS.clear();
        assertEquals(List.of(), leaks, "Netty buffers leaked");
    }
}
