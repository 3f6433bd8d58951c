package seckill.drill.api;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RampOptionsTest {

    @Test
    void theRampRisesFromAShareOfTheTargetToOneAndAHalfTimesIt() {
        RampOptions o = RampOptions.parse(new String[] {"--url", "http://x", "--target-rate", "100"});
        assertThat(o.steps(), is(6));
        assertThat(o.stepLength(), is(Duration.ofSeconds(30)));
        assertThat(o.rates(), is(List.of(25.0, 50.0, 75.0, 100.0, 125.0, 150.0)));
        assertThat(o.plannedRequests(), is(30L * (25 + 50 + 75 + 100 + 125 + 150)));
        RampOptions one = RampOptions.parse(new String[] {"--url", "http://x", "--target-rate", "10", "--steps", "1",
                "--step-seconds", "0.5"});
        assertThat(one.rates(), is(List.of(15.0)));
        assertThat(one.stepLength(), is(Duration.ofMillis(500)));
    }

    @Test
    void aRehearsalNeedsTheEdgesKeyAndARehearsalsActivity() {
        RampOptions o = RampOptions.parse(new String[] {"--url", "http://a", "--url", "http://b", "--target-rate", "10",
                "--rehearsal", "--edge-key-file", "/etc/edge.key"});
        assertThat(o.rehearsal(), is(true));
        assertThat(o.keepRehearsal(), is(false));
        assertThat(o.edgeKeyFile().orElseThrow().toString(), is("/etc/edge.key"));
        assertThat(o.url().toString(), is("http://a"));
        assertThat(o.urls().toString(), is("[http://a, http://b]"));
        RampOptions kept = RampOptions.parse(new String[] {"--url", "http://a", "--target-rate", "10", "--rehearsal",
                "--edge-key-file", "k", "--keep-rehearsal", "--activity", "1000000000000004"});
        assertThat(kept.keepRehearsal(), is(true));
        assertThat(kept.activity().orElseThrow(), is(1_000_000_000_000_004L));
        assertThat(RampOptions.parse(new String[] {"--url", "http://a", "--target-rate", "10"}).rehearsal(), is(false));
        for (String[] args : new String[][] {{"--url", "http://x", "--target-rate", "5", "--rehearsal"},
                {"--url", "http://x", "--target-rate", "5", "--edge-key-file", "k"},
                {"--url", "http://x", "--target-rate", "5", "--keep-rehearsal"},
                {"--url", "http://x", "--target-rate", "5", "--rehearsal", "--edge-key-file", "k", "--activity", "7"},
                {"--url", "http://x", "--target-rate", "5", "--activity", "1000000000000004"}}) {
            assertThrows(IllegalArgumentException.class, () -> RampOptions.parse(args), String.join(" ", args));
        }
    }

    @Test
    void badOptionsAreRefused() {
        for (String[] args : new String[][] {{"--target-rate", "10"}, {"--url", "http://x"},
                {"--url", "http://x", "--target-rate", "0"}, {"--url", "http://x", "--target-rate", "5", "--steps", "0"},
                {"--url", "http://x", "--target-rate", "5", "--start-fraction", "2"},
                {"--url", "http://x", "--target-rate", "5", "--shed-percent", "-1"},
                {"--url", "http://x", "--target-rate", "5", "--nope"}}) {
            assertThrows(IllegalArgumentException.class, () -> RampOptions.parse(args), String.join(" ", args));
        }
    }
}
