import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes META-INF/services files from the provides clauses of a compiled module-info, so that class-path
 * runs see the same providers as module-path runs. A hand-written service file fails the build: module-info
 * is the one place a provider is declared.
 *
 * <p>Usage: {@code java ServiceFiles.java <resources dir> <classes dir>}
 */
public final class ServiceFiles {
    public static void main(String[] args) throws IOException {
        Path handWritten = Path.of(args[0], "META-INF", "services");
        if (Files.exists(handWritten)) {
            System.err.println("error: " + handWritten + " is written by hand; declare providers with 'provides' in module-info.java");
            System.exit(1);
        }
        Path classes = Path.of(args[1]);
        Path moduleInfo = classes.resolve("module-info.class");
        if (!Files.exists(moduleInfo)) {
            return;
        }
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            descriptor = ModuleDescriptor.read(in);
        }
        Path services = classes.resolve("META-INF").resolve("services");
        for (ModuleDescriptor.Provides provides : descriptor.provides()) {
            Files.createDirectories(services);
            Path file = services.resolve(provides.service());
            Path tmp = services.resolve(provides.service() + ".tmp");
            Files.writeString(tmp, String.join("\n", provides.providers()) + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
