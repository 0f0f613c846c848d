package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.metadata.StandardAcl;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.raft.DynamicVoters;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --add-scram} and {@code --add-acl}: Kafka 4.4's own format tool ({@code Formatter}) judges the SCRAM
 * credential records, byte for byte where salt and salted password are given, and the messages of its refusals; a
 * directory formatted with both starts a controller whose image holds the user and the ACL.
 */
class BootstrapSecurityRecordsTest {

    @TempDir
    Path dir;

    @Test
    void scramRecordsAreTheBytesKafkasFormatToolWrites() throws Exception {
        List<String> arguments = List.of(
                "SCRAM-SHA-256=[name=alice,iterations=8192,salt=\"N3E=\",saltedpassword=\"YCE=\"]",
                "SCRAM-SHA-512=[name=bob,salt=c2FsdA==,password=bob-secret]",
                " SCRAM-SHA-256=[name=carol,salt=\"c2FsdA==\",password=\"x y\"]");
        List<ByteBuffer> kafka = kafkaFormat(arguments).stream()
                .filter(record -> record.message() instanceof UserScramCredentialRecord)
                .map(BootstrapSecurityRecordsTest::kafkaFramed)
                .toList();
        List<ByteBuffer> ours = arguments.stream()
                .map(argument -> MetadataRecordSerde.serialize(ScramArgument.parse(argument), (short) 0))
                .toList();
        assertEquals(kafka, ours);
    }

    @Test
    void badScramArgumentsAreRefusedWithKafkasMessages() throws Exception {
        for (String argument : List.of(
                "SCRAM-SHA-256 name=alice",
                "SCRAM-SHA-384=[name=alice,password=a]",
                "SCRAM-SHA-256=name=alice,password=a]",
                "SCRAM-SHA-256=[name=alice,password=a",
                "SCRAM-SHA-256=[password=a]",
                "SCRAM-SHA-256=[name=alice]",
                "SCRAM-SHA-256=[name=alice,saltedpassword=YCE=]",
                "SCRAM-SHA-256=[name=alice,password=a,iterations=4095]",
                "SCRAM-SHA-512=[name=alice,password=a,iterations=16385]",
                "SCRAM-SHA-256=[name=alice,password=a,iterations=many]",
                "SCRAM-SHA-256=[name=alice,password=a,colour=red]",
                "SCRAM-SHA-256=[name=alice,password]")) {
            Exception theirs = assertThrows(Exception.class, () -> kafkaFormat(List.of(argument)), argument);
            IllegalArgumentException mine =
                    assertThrows(IllegalArgumentException.class, () -> ScramArgument.parse(argument), argument);
            assertEquals(theirs.getMessage(), mine.getMessage(), argument);
        }
    }

    @Test
    void aFormattedUserAndAclAreInTheFirstImage() throws Exception {
        new io.krabka.kernel.format.Formatter(Clock.systemUTC())
                .format(spec(
                        List.of("SCRAM-SHA-512=[name=admin,password=admin-secret,iterations=8192]"),
                        List.of("principal=User:admin,host=*,operation=ALL,permission=ALLOW,resource-type=CLUSTER,"
                                + "resource-name=kafka-cluster,pattern-type=LITERAL")));
        try (Controllers controllers = Controllers.start(dir, Map.of())) {
            MetadataImage image = controllers.controller().image();
            assertEquals(
                    8192,
                    image.scram()
                            .credential("admin", ScramMechanism.SCRAM_SHA_512)
                            .orElseThrow()
                            .iterations());
            assertEquals(
                    List.of(new StandardAcl(
                            ResourceType.CLUSTER,
                            "kafka-cluster",
                            PatternType.LITERAL,
                            "User:admin",
                            "*",
                            AclOperation.ALL,
                            AclPermissionType.ALLOW)),
                    List.copyOf(image.acls().acls().values()));
        }
    }

    @Test
    void badAclArgumentsAreRefusedBeforeAnythingIsWritten() {
        for (Map.Entry<String, String> bad : Map.of(
                        "principal=User:a,operation=READ,permission=ALLOW,resource-type=TOPIC",
                        "You must supply 'resource-name' to add-acl",
                        "principal=a,operation=READ,permission=ALLOW,resource-type=TOPIC,resource-name=t",
                        "Could not parse principal from `a` (no colon is present separating the principal type from "
                                + "the principal name)",
                        "principal=User:a,operation=SING,permission=ALLOW,resource-type=TOPIC,resource-name=t",
                        "add-acl operation 'SING' is not one of [ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, "
                                + "CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, CREATE_TOKENS, "
                                + "DESCRIBE_TOKENS, TWO_PHASE_COMMIT]",
                        "principal=User:a,operation=ALL,permission=ALLOW,resource-type=CLUSTER,resource-name=c",
                        "The only valid name for the CLUSTER resource is kafka-cluster",
                        "principal=User:a,operation=ALL,permission=ALLOW,resource-type=TOPIC,resource-name=t,colour=red",
                        "Unknown add-acl keys: colour")
                .entrySet()) {
            FormatException refused = assertThrows(
                    FormatException.class,
                    () -> new io.krabka.kernel.format.Formatter(Clock.systemUTC())
                            .format(spec(List.of(), List.of(bad.getKey()))),
                    bad.getKey());
            assertEquals(FormatException.Kind.INVALID_BOOTSTRAP_RECORD, refused.kind());
            assertEquals(bad.getValue(), refused.getMessage());
        }
        assertEquals(List.of(), List.of(dir.toFile().list()));
    }

    private FormatSpec spec(List<String> scram, List<String> acls) {
        return new FormatSpec(
                List.of(dir),
                dir,
                "kUtTVxF2S8GcqgGq3ymNbA",
                Controllers.NODE_ID,
                Optional.of(Controllers.DIRECTORY_ID),
                Optional.empty(),
                List.of(),
                new InitialQuorum.Standalone("127.0.0.1", 9093),
                "CONTROLLER",
                false,
                scram,
                acls);
    }

    // Kafka's bootstrap records, or its refusal thrown.
    private List<ApiMessageAndVersion> kafkaFormat(List<String> scram) throws Exception {
        Path logDir = Files.createTempDirectory(dir, "kafka");
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(1)
                .setClusterId("MkU3OEVBNTcwNTJENDM2Qk")
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER")
                .setHasDynamicQuorum(true)
                .setInitialControllers(DynamicVoters.parse("1@127.0.0.1:9093:0XYIQhIGSoePQhGC5Avl4w"))
                .setScramArguments(scram);
        formatter.run();
        return formatter.bootstrapMetadata().records();
    }

    private static ByteBuffer kafkaFramed(ApiMessageAndVersion record) {
        org.apache.kafka.metadata.MetadataRecordSerde serde = new org.apache.kafka.metadata.MetadataRecordSerde();
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(serde.recordSize(record, cache));
        serde.write(record, cache, new ByteBufferAccessor(buffer));
        return buffer.flip();
    }
}
