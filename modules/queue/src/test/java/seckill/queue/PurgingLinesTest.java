package seckill.queue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The waiting line's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), on a real Redis:
 * the rehearsal's line keys go; the same keys spelled {@code sk:} with the same number and another rehearsal's
 * whose id starts with the same digits stay.
 */
class PurgingLinesTest {

    @RegisterExtension
    static final QueueRedis REDIS = QueueRedis.configuredOrOwn();

    @Test
    void aPurgeDeletesTheRehearsalsLineOnly() {
        UnifiedJedis redis = REDIS.client();
        long rehearsal = World.REHEARSAL_IDS_FROM + System.nanoTime() % 1_000_000;
        List<String> own = List.of("rh:{q:a" + rehearsal + "}:line", "rh:{q:a" + rehearsal + "}:passes");
        List<String> others = List.of("sk:{q:a" + rehearsal + "}:line", "rh:{q:a" + (rehearsal * 10 + 1) + "}:line");
        try {
            own.forEach(k -> redis.set(k, "1"));
            others.forEach(k -> redis.set(k, "2"));
            assertThat(new PurgingLines(redis).purge(rehearsal), is(2L));
            own.forEach(k -> assertThat(k, redis.exists(k), is(false)));
            others.forEach(k -> assertThat(k, redis.get(k), is("2")));
            assertThat(new PurgingLines(redis).purge(rehearsal), is(0L));
            assertThrows(IllegalArgumentException.class, () -> new PurgingLines(redis).purge(7));
        } finally {
            own.forEach(redis::del);
            others.forEach(redis::del);
        }
    }
}
