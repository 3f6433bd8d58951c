package seckill.reservation;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import seckill.redis.CoalescingSettings;
import seckill.redis.RehearsalKeys;
import seckill.redis.World;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The reservation module's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), on a real
 * Redis: every key of the rehearsal's buckets goes and its streams leave {@code rh:streams}, while every
 * {@code sk:} key spelled with the very same number (the keys a same-numbered real activity would have, were
 * the prefix forgotten), a real activity's keys, and the keys of another rehearsal whose id starts with this
 * one's digits are left exactly as they were (compared by {@code DUMP}).
 */
class PurgingStockTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void aPurgeLeavesEverySkKeyOfASameNumberedActivityUntouched() {
        UnifiedJedis redis = SERVER.client();
        ReservationSettings settings = new ReservationSettings("ordering", 2_000, java.time.Duration.ofSeconds(30),
                new CoalescingSettings(false, 32, 0, 1), seckill.redis.ReplicaAcks.NONE);
        TestStock stock = TestStock.leased(redis, Clock.systemUTC(), settings);
        long suffix = System.nanoTime() % 1_000_000;
        long rehearsal = World.REHEARSAL_IDS_FROM + suffix;
        // its digits followed by more digits: a pattern not closed after the id would match it
        long longer = rehearsal * 10 + 7;
        long real = 900_000_000_000L + suffix;
        try {
            Instant end = Instant.now().plusSeconds(600);
            stock.preheat(new PreheatStock(rehearsal, 1, 4, 2, end));
            stock.preheat(new PreheatStock(longer, 1, 4, 1, end));
            stock.preheat(new PreheatStock(real, 1, 4, 1, end));
            assertThat(stock.reserve(new ReserveStock(rehearsal, 1, 2, 7, 1, "purge-7")),
                    instanceOf(ReservationOutcome.Reserved.class));
            assertThat(stock.reserve(new ReserveStock(longer, 1, 1, 7, 1, "purge-l-7")),
                    instanceOf(ReservationOutcome.Reserved.class));
            // the same-numbered sk: twins of every rehearsal key
            List<String> own = keys(redis, "rh:{a" + rehearsal + ":*");
            assertThat(own.size() >= 4, is(true));
            for (String key : own) {
                redis.copy(key, World.REAL.key(key.substring(World.REHEARSAL.prefix().length())), true);
            }
            Map<String, ByteBuffer> othersBefore = othersThan(redis, rehearsal);
            List<redis.clients.jedis.resps.Tuple> registryBefore = redis.zrangeWithScores(
                    StockBuckets.streamRegistry(World.REHEARSAL), 0, -1);
            assertThat(othersBefore.keySet().stream().filter(k -> k.startsWith("sk:{a" + rehearsal + ":s1:")).count(),
                    is((long) own.size()));

            long deleted = new PurgingStock(redis).purge(rehearsal);

            assertThat(deleted, is((long) own.size()));
            assertThat(keys(redis, "rh:{a" + rehearsal + ":*"), is(List.of()));
            List<String> listed = redis.zrange(StockBuckets.streamRegistry(World.REHEARSAL), 0, -1);
            assertThat(listed.stream().anyMatch(s -> s.startsWith("rh:{a" + rehearsal + ":")), is(false));
            assertThat(listed, hasItem(StockBuckets.of(longer, 1, 1).events(0)));
            assertThat(redis.zrangeWithScores(StockBuckets.streamRegistry(World.REHEARSAL), 0, -1), is(registryBefore.stream()
                    .filter(t -> !t.getElement().startsWith("rh:{a" + rehearsal + ":")).toList()));
            assertUntouched(redis, rehearsal, othersBefore);
            // idempotent: nothing left, nothing more deleted
            assertThat(new PurgingStock(redis).purge(rehearsal), is(0L));
            assertUntouched(redis, rehearsal, othersBefore);
            // a real id is never purged, and no pattern can leave its id open
            assertThrows(IllegalArgumentException.class, () -> new PurgingStock(redis).purge(real));
            assertThrows(IllegalArgumentException.class, () -> RehearsalKeys.pattern(rehearsal, "{a", "*"));
            assertThrows(IllegalArgumentException.class, () -> RehearsalKeys.pattern(rehearsal, "{a", "0:*"));
            assertThrows(IllegalArgumentException.class, () -> RehearsalKeys.find(redis, List.of("sk:{a1:*")));
        } finally {
            stock.releaseLease();
            for (String pattern : List.of("rh:{a" + rehearsal + ":*", "sk:{a" + rehearsal + ":*", "rh:{a" + longer + ":*",
                    "sk:{a" + real + ":*")) {
                keys(redis, pattern).forEach(redis::del);
            }
            redis.zrem(StockBuckets.streamRegistry(World.REHEARSAL), StockBuckets.of(longer, 1, 1).events(0));
            redis.zrem(StockBuckets.streamRegistry(World.REAL), StockBuckets.of(real, 1, 1).events(0));
        }
    }

    /**
     * The keys {@code before} holds are as they were, by their DUMP, and no key has come that {@link #othersThan}
     * would take. What to compare is decided once, by the first look: a key's TTL moves between looks.
     */
    private static void assertUntouched(UnifiedJedis redis, long rehearsal, Map<String, ByteBuffer> before) {
        Map<String, ByteBuffer> now = new TreeMap<>();
        for (String key : before.keySet()) {
            byte[] value = redis.dump(key);
            if (value != null) {
                now.put(key, ByteBuffer.wrap(value));
            }
        }
        assertThat(now, is(before));
        assertThat(before.keySet().containsAll(othersThan(redis, rehearsal).keySet()), is(true));
    }

    /**
     * Every key but the rehearsal's own, by its DUMP (TTLs left out); node leases left out (renewed meanwhile),
     * and keys that expire within a minute: other tests' keys in the same database (a buyer window's hash of
     * a 4 s window) may expire by themselves between two looks (once in a CI rehearsal).
     */
    private static Map<String, ByteBuffer> othersThan(UnifiedJedis redis, long rehearsal) {
        Map<String, ByteBuffer> dump = new TreeMap<>();
        for (String key : keys(redis, "*")) {
            // the registry loses the rehearsal's members: compared apart, member by member
            if (key.startsWith("rh:{a" + rehearsal + ":") || key.startsWith("sk:node") || key.equals("rh:streams")) {
                continue;
            }
            long ttl = redis.pttl(key);
            if (ttl >= 0 && ttl < 60_000) {
                continue;
            }
            byte[] value = redis.dump(key);
            if (value != null) {
                dump.put(key, ByteBuffer.wrap(value));
            }
        }
        return dump;
    }

    private static List<String> keys(UnifiedJedis redis, String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = redis.scan(cursor, new ScanParams().match(pattern).count(1000));
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return keys;
    }
}
