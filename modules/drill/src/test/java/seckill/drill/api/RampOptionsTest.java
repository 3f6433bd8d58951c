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
