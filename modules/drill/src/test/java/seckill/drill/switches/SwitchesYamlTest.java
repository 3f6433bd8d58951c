package seckill.drill.switches;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** Editing the switches file one line at a time: every other line, comment and spacing stays as it was. */
class SwitchesYamlTest {

    private static final String FILE = """
            # Hot switches, re-read within a second of a change (no restart).
            seckill.admission.halt: false
            seckill.admission.global-rate: 0           # attempts per second; 0 = no cap

            seckill.admission.blocked-users: ""        # comma-separated buyer ids
            # seckill.redis.min-replica-acks: all    # commented out: not a key
            """;

    @Test
    void aValueIsReplacedOnItsLineWithItsSpacingAndComment() {
        String edited = SwitchesYaml.withValue(FILE, "seckill.admission.global-rate", "1");
        assertThat(edited, is(FILE.replace("global-rate: 0           #", "global-rate: 1           #")));
        assertThat(SwitchesYaml.valueOf(edited, "seckill.admission.global-rate"), is(Optional.of("1")));
        assertThat(SwitchesYaml.withValue(FILE, "seckill.admission.halt", "true"),
                is(FILE.replace("halt: false", "halt: true")));
    }

    @Test
    void puttingTheOldValueBackGivesTheSameText() {
        String there = SwitchesYaml.withValue(FILE, "seckill.admission.halt", "true");
        assertThat(SwitchesYaml.withValue(there, "seckill.admission.halt", "false"), is(FILE));
    }

    @Test
    void aKeyNotInTheFileIsAppendedAndACommentedOutKeyIsNotTouched() {
        String edited = SwitchesYaml.withValue(FILE, "seckill.queue.enabled", "true");
        assertThat(edited, is(FILE + "seckill.queue.enabled: true  # switch drill\n"));
        String replicas = SwitchesYaml.withValue(FILE, "seckill.redis.min-replica-acks", "1");
        assertThat(replicas, containsString("# seckill.redis.min-replica-acks: all    # commented out"));
        assertThat(SwitchesYaml.valueOf(FILE, "seckill.redis.min-replica-acks"), is(Optional.empty()));
        assertThat(SwitchesYaml.withValue("a.b: 1", "c.d", "2"), is("a.b: 1\nc.d: 2  # switch drill\n"));
    }

    @Test
    void windowsLineEndingsAndQuotedValuesSurvive() {
        String crlf = "seckill.admission.halt: false\r\nseckill.queue.rate: \"100\"  # quoted\r\n";
        assertThat(SwitchesYaml.valueOf(crlf, "seckill.queue.rate"), is(Optional.of("100")));
        assertThat(SwitchesYaml.withValue(crlf, "seckill.queue.rate", "7"),
                is("seckill.admission.halt: false\r\nseckill.queue.rate: 7  # quoted\r\n"));
        assertThat(SwitchesYaml.valueOf(FILE, "seckill.admission.blocked-users"), is(Optional.of("")));
    }

    @Test
    void nestedMapsAndRepeatedKeysAreRefusedNotGuessed() {
        assertThat(SwitchesYaml.unsupported(FILE), is(Optional.empty()));
        assertThat(SwitchesYaml.unsupported("seckill:\n  admission:\n    halt: false\n").orElseThrow(),
                containsString("nested map"));
        assertThat(SwitchesYaml.unsupported("a.b: 1\na.b: 2\n").orElseThrow(), containsString("twice"));
        assertThat(SwitchesYaml.unsupported("- a\n").orElseThrow(), containsString("not a flat"));
    }

    @Test
    void theShippedFileIsEditable() throws Exception {
        Path shipped = Path.of("../../config/switches.yaml");
        String text = Files.readString(shipped);
        assertThat(SwitchesYaml.unsupported(text), is(Optional.empty()));
        assertThat(SwitchesYaml.valueOf(text, "seckill.ordering.max-orders-per-second"), is(Optional.of("0")));
        for (HotSwitch hot : HotSwitch.SALE_DAY) {
            if (!hot.endpoint()) {
                String flipped = SwitchesYaml.withValue(text, hot.key(), "9");
                assertThat(SwitchesYaml.valueOf(flipped, hot.key()), is(Optional.of("9")));
                assertThat(flipped.lines().count(), is(text.lines().count()
                        + (SwitchesYaml.valueOf(text, hot.key()).isPresent() ? 0 : 1)));
            }
        }
    }
}
