package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.values;

import io.krabka.archive.keys.KeyFileException;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.keys.VerificationKey;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;

/** The trusted signing keys an archive command is given: key ids and public key files, paired by position. */
final class TrustedKeyFlags {

    private TrustedKeyFlags() {}

    /**
     * The keys named by the repeatable options {@code idOption} and {@code keyOption}, each file read.
     *
     * @throws CommandException a usage error when the two do not pair up, an id is given twice, or a file is not a key
     */
    static TrustedKeys read(CommandLine line, String idOption, String keyOption) throws CommandException {
        List<String> ids = values(line, idOption);
        List<String> keys = values(line, keyOption);
        if (ids.size() != keys.size()) {
            throw CommandException.usage("--" + idOption + " and --" + keyOption + " pair by position: " + ids.size()
                    + " key id(s), " + keys.size() + " public key(s)");
        }
        Map<String, VerificationKey> trusted = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            try {
                if (trusted.put(ids.get(i), VerificationKey.readFile(Path.of(keys.get(i)))) != null) {
                    throw CommandException.usage("--" + idOption + " " + ids.get(i) + " is given twice");
                }
            } catch (KeyFileException e) {
                throw CommandException.usage("--" + keyOption + " " + keys.get(i) + ": " + e.getMessage());
            }
        }
        return TrustedKeys.of(trusted);
    }
}
