package io.krabka.jlink;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * A JDK tool (jlink, jdeps) run in this JVM through {@link ToolProvider}, as Helidon's Linker runs them.
 *
 * @param name the tool's name
 * @param provider the tool
 */
record Tool(String name, ToolProvider provider) {

    static Tool find(String name) {
        return ToolProvider.findFirst(name)
                .map(provider -> new Tool(name, provider))
                .orElseThrow(
                        () -> new ImageException("this Java runtime has no " + name + "; build images with a JDK 25"));
    }

    /** Runs the tool; returns what it printed; a failure is an error carrying everything it printed. */
    String run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter outWriter = new PrintWriter(out);
                PrintWriter errWriter = new PrintWriter(err)) {
            code = provider.run(outWriter, errWriter, args.toArray(String[]::new));
        }
        if (code != 0) {
            String printed = (err + "\n" + out).strip().replaceAll("\\s*\\R\\s*", "; ");
            throw new ImageException(name + " failed (exit " + code + "): " + printed);
        }
        return out.toString();
    }
}
