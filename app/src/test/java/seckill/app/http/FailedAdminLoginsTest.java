package seckill.app.http;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The admin guess throttle's arithmetic, without a server. */
class FailedAdminLoginsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private final FailedAdminLogins logins = new FailedAdminLogins(
            new FailedAdminLogins.Limits(3, 5, Duration.ofSeconds(60), 1_000));

    @Test
    void anAddressIsRefusedAfterItsFailuresUntilTheWindowEnds() {
        for (int i = 0; i < 3; i++) {
            assertThat(logins.refusal("a", T0), is(Optional.empty()));
            logins.failed("a", T0);
        }
        assertThat(logins.refusal("a", T0.plusSeconds(15)), is(Optional.of(new FailedAdminLogins.Refusal("ADDRESS", 45))));
        assertThat(logins.refusal("b", T0.plusSeconds(15)), is(Optional.empty()));
        assertThat(logins.refusal("a", T0.plusSeconds(60)), is(Optional.empty()));
    }

    @Test
    void pastTheTotalEveryAddressThatFailedIsRefusedButACleanOneIsNot() {
        for (String address : new String[] {"a", "b", "c", "d", "e"}) {
            logins.failed(address, T0);
        }
        assertThat(logins.refusal("c", T0).map(FailedAdminLogins.Refusal::limit), is(Optional.of("GLOBAL")));
        // the operator, who never typed a wrong token, still gets in
        assertThat(logins.refusal("operator", T0), is(Optional.empty()));
    }

    @Test
    void aFloodOfAddressesIsBoundedInMemoryAndFallsUnderTheTotal() {
        FailedAdminLogins small = new FailedAdminLogins(new FailedAdminLogins.Limits(3, 2, Duration.ofSeconds(60), 2));
        small.failed("a", T0);
        small.failed("b", T0);
        small.failed("c", T0);
        assertThat(small.refusal("d", T0).map(FailedAdminLogins.Refusal::limit), is(Optional.of("GLOBAL")));
    }
}
