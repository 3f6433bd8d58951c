package seckill.admission;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Admission's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), on a real Redis: the
 * rehearsal's SKUs are flagged sold out, and its tokens, challenges and rate leases go; the same keys spelled
 * {@code sk:} with the same number, another rehearsal's whose id starts with the same digits, and the keys of
 * no activity (the per-address throttle) are left exactly as they were.
 */
class PurgingAdmissionTest {

    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.configuredOrOwn();

    @Test
    void aPurgeDeletesTheRehearsalsAdmissionKeysOnly() {
        UnifiedJedis redis = REDIS.client();
        long rehearsal = World.REHEARSAL_IDS_FROM + System.nanoTime() % 1_000_000;
        long longer = rehearsal * 10 + 3;
        List<String> own = List.of("rh:tok:{a" + rehearsal + ":u7}:spent", "rh:chal:{a" + rehearsal + ":u7}:n",
                "rh:{rl:a" + rehearsal + ":p0}:gl");
        List<String> others = List.of("sk:tok:{a" + rehearsal + ":u7}:spent", "sk:chal:{a" + rehearsal + ":u7}:n",
                "sk:{rl:a" + rehearsal + ":p0}:gl", "rh:tok:{a" + longer + ":u7}:spent", "rh:chal:{a" + longer + ":u7}:n",
                "rh:{rl:a" + longer + ":p0}:gl", "rh:chal:{ip:10.0.0." + rehearsal % 250 + "}:n");
        SoldOutBroadcast broadcast = new SoldOutBroadcast(redis, 60);
        broadcast.init();
        try {
            own.forEach(k -> redis.set(k, "1"));
            others.forEach(k -> redis.set(k, "2"));

            long deleted = new PurgingAdmission(redis, broadcast).purge(rehearsal, List.of(1L, 2L));

            assertThat(deleted, is(3L));
            own.forEach(k -> assertThat(k, redis.exists(k), is(false)));
            Map<String, String> left = new TreeMap<>();
            others.forEach(k -> left.put(k, redis.get(k)));
            assertThat(left.values().stream().allMatch("2"::equals), is(true));
            assertThat(broadcast.flags().isSet(rehearsal, 1), is(true));
            assertThat(broadcast.flags().isSet(rehearsal, 2), is(true));
            assertThat(new PurgingAdmission(redis, broadcast).purge(rehearsal, List.of()), is(0L));
            assertThrows(IllegalArgumentException.class, () -> new PurgingAdmission(redis, broadcast).purge(7, List.of()));
        } finally {
            own.forEach(redis::del);
            others.forEach(redis::del);
        }
    }
}
