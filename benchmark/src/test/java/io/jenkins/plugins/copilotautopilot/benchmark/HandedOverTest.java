package io.jenkins.plugins.copilotautopilot.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A chunk crosses the modelled channel whole, whichever way it is written. */
class HandedOverTest {
    private final HandedOver.Chunk chunk = new HandedOver.Chunk(12, bytes("{\"type\":\"a\"}\n"), 3, bytes("warn\n"), 40,
            bytes("{\"type\":\"session.usage_record\"}\n"), 77, 2);

    @Test
    void aChunkWrittenFieldByFieldIsReadBackWhole() throws IOException {
        assertSame(HandedOver.Chunk.deserialize(write(chunk)));
    }

    @Test
    void aChunkWrittenOutByItsOwnCodeIsReadBackWholeAndCarriesNoFieldDescriptors() throws IOException {
        byte[] wire = write(new HandedOver.WrittenOut(chunk));
        assertSame(HandedOver.Chunk.deserialize(wire));
        assertThat(new String(wire, StandardCharsets.ISO_8859_1)).as("no field names in the stream")
                .doesNotContain("outputStart", "usageConsumed").contains("WrittenOut");
        assertThat(HandedOver.Chunk.deserialize(write(new HandedOver.WrittenOut(new HandedOver.Chunk(0, new byte[0], 0,
                new byte[0], 0, new byte[0], 0, null)))).exitCode()).as("no exit code yet").isNull();
    }

    @Test
    void theLastChunksFieldsCrossWrittenOutToo() throws IOException {
        HandedOver.Chunk last = new HandedOver.Chunk(1, new byte[0], 0, new byte[0], 0, new byte[0], 0, 0);
        last.launchError = "cannot run the CLI";
        last.changesPatch = bytes("diff --git a/x b/x\n");
        last.keptSessionSize = 42;

        HandedOver.Chunk read = HandedOver.Chunk.deserialize(write(new HandedOver.WrittenOut(last)));

        assertThat(read.launchError).isEqualTo("cannot run the CLI");
        assertThat(read.changesPatch).isEqualTo(last.changesPatch);
        assertThat(read.changesStatus).isNull();
        assertThat(read.keptSessionSize).isEqualTo(42);
        assertThat(read.exitCode()).isZero();
    }

    private void assertSame(HandedOver.Chunk read) {
        assertThat(read.outputStart).isEqualTo(12);
        assertThat(read.output).isEqualTo(chunk.output);
        assertThat(read.stderrStart).isEqualTo(3);
        assertThat(read.stderr).isEqualTo(chunk.stderr);
        assertThat(read.usageStart).isEqualTo(40);
        assertThat(read.usage).isEqualTo(chunk.usage);
        assertThat(read.usageConsumed).isEqualTo(77);
        assertThat(read.exitCode()).isEqualTo(2);
    }

    private static byte[] write(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
