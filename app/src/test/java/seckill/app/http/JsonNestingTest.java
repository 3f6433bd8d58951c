package seckill.app.http;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class JsonNestingTest {

    @Test
    void countsArraysAndObjectsInsideOneAnother() {
        assertThat(JsonNesting.deeperThan("{\"a\":[{\"b\":1}]}", 3), is(false));
        assertThat(JsonNesting.deeperThan("{\"a\":[{\"b\":[1]}]}", 3), is(true));
        assertThat(JsonNesting.deeperThan("[[],[],[],[]]", 2), is(false));
    }

    @Test
    void bracketsInsideStringsDoNotCount() {
        assertThat(JsonNesting.deeperThan("{\"a\":\"[[[[{{{{\"}", 1), is(false));
        assertThat(JsonNesting.deeperThan("{\"a\":\"\\\"[[[[\"}", 1), is(false));
        assertThat(JsonNesting.deeperThan("{\"a\\\\\":[[1]]}", 2), is(true));
    }

    @Test
    void aThousandTwoHundredLevelsAreTooDeep() {
        assertThat(JsonNesting.deeperThan("{\"a\":" + "[".repeat(1_200) + "1" + "]".repeat(1_200) + "}", 16), is(true));
        assertThat(JsonNesting.deeperThan("[".repeat(1_200), 16), is(true));
    }
}
