package io.krabka.launcher;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SIGTERM and SIGINT taken as a request to stop, in place of the JVM's own handling (which exits 143 or 130 as
 * soon as the shutdown hooks are done, and resets java.util.logging while the broker still logs its shutdown).
 * Through {@code sun.misc.Signal} by reflection, as Kafka's {@code LoggingSignalHandler} does: javac warns at every
 * direct use of it, and warnings fail this build.
 */
final class StopSignals {
    private static final List<String> SIGNALS = List.of("TERM", "INT");

    private StopSignals() {}

    /**
     * Runs {@code stop} on a thread of its own at each SIGTERM or SIGINT.
     *
     * @return puts back the handlers there were before; does nothing where these could not be put in place (the
     *         JVM's own handling then stays)
     */
    static Runnable onStop(Runnable stop) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object handler = Proxy.newProxyInstance(
                    StopSignals.class.getClassLoader(),
                    new Class<?>[] {handlerType},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            Thread.ofPlatform().name("krabka-stop-" + args[0]).start(stop);
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "krabka stop signal handler";
                    });
            Method handle = signal.getMethod("handle", signal, handlerType);
            Map<Object, Object> previous = new LinkedHashMap<>();
            for (String name : SIGNALS) {
                Object sig = signal.getConstructor(String.class).newInstance(name);
                previous.put(sig, handle.invoke(null, sig, handler));
            }
            return () -> previous.forEach((sig, old) -> {
                try {
                    handle.invoke(null, sig, old);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("restoring the handler of " + sig, e);
                }
            });
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return () -> {};
        }
    }
}
