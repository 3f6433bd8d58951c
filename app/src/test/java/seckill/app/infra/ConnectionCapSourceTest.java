package seckill.app.infra;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class ConnectionCapSourceTest {

    @Test
    void halfOfTheFilesLeftBetweenItsBounds() {
        assertThat(ConnectionCapSource.cap(OptionalLong.of(1_024), OptionalLong.of(200)), is(412L));
        assertThat(ConnectionCapSource.cap(OptionalLong.of(1_048_576), OptionalLong.of(200)), is(ConnectionCapSource.MOST));
        assertThat(ConnectionCapSource.cap(OptionalLong.of(100), OptionalLong.of(90)), is(ConnectionCapSource.LEAST));
    }

    @Test
    void aPlatformThatDoesNotSayItsLimitGetsTheUpperBound() {
        assertThat(ConnectionCapSource.cap(OptionalLong.empty(), OptionalLong.empty()), is(ConnectionCapSource.MOST));
    }
}
