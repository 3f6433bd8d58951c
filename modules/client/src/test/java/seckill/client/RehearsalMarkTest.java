package seckill.client;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The edge's rehearsal mark as the client signs it, and the activity a request's path names. */
class RehearsalMarkTest {

    private static final String KEY = "test-rehearsal-edge-key-of-32-characters";

    @Test
    void theMarkIsTheHmacOfActivityBuyerAndSecondUnderTheEdgesKey() {
        // the value computed apart: printf 'rehearsal.1000000000000007.42.1764892800' | openssl dgst -sha256 -hmac KEY
        assertThat(new RehearsalMark(KEY).sign(1_000_000_000_000_007L, 42, Instant.ofEpochSecond(1_764_892_800L, 999_000_000)),
                is("a=1000000000000007,t=1764892800,v1=3d14f76235d81a0afba5569776c67a4ee8bfe3dc62c62592b67d13d39303ef02"));
    }

    @Test
    void aKeyShorterThanTheServiceAcceptsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RehearsalMark("short"));
    }

    @Test
    void theActivityIsReadFromEveryBuyerPathNamingOne() {
        assertThat(RehearsalMark.activityOf("/api/v1/activities/1000000000000007/purchases"), is(Optional.of(1_000_000_000_000_007L)));
        assertThat(RehearsalMark.activityOf("/api/v1/activities/1000000000000007"), is(Optional.of(1_000_000_000_000_007L)));
        assertThat(RehearsalMark.activityOf("/api/v1/activities/12/queue"), is(Optional.of(12L)));
        assertThat(RehearsalMark.activityOf("/api/v1/reservations/1000000000000007-3-0-17"), is(Optional.of(1_000_000_000_000_007L)));
        assertThat(RehearsalMark.activityOf("/api/v1/payments/callback"), is(Optional.empty()));
        assertThat(RehearsalMark.activityOf("/api/v1/activities/99999999999999999999/purchases"), is(Optional.empty()));
    }
}
