package seckill.settlement.rules;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class JsonNestingTest {

    private static boolean deeperThan(String body, int limit) {
        return JsonNesting.deeperThan(body.getBytes(StandardCharsets.UTF_8), limit);
    }

    @Test
    void aCallbackIsOneLevelAndTwelveHundredAreTooMany() {
        assertThat(deeperThan("{\"orderNo\":\"x\",\"amount\":1}", 1), is(false));
        assertThat(deeperThan("{\"a\":" + "[".repeat(1_200) + "1" + "]".repeat(1_200) + "}", 8), is(true));
    }

    @Test
    void bracketsInsideStringsDoNotCountWhateverTheirNeighbours() {
        assertThat(deeperThan("{\"a\":\"[[[[ \\\" {{{{ é€\"}", 1), is(false));
        assertThat(deeperThan("{\"é\":[[1]]}", 2), is(true));
    }
}
