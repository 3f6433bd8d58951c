package seckill.reservation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.CoalescingSettings;
import seckill.redis.World;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.redis.ReservationSequence;
import seckill.reservation.redis.StockBuckets;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue #34 (docs/rehearsal.md): a rehearsal's stock is preheated, reserved and recorded under rh: only,
 * its streams listed in rh:streams where the real workers never look, and no real key changes; a rehearsal
 * stream cannot be registered where the real workers read. On a real Redis ({@link TestRedis}).
 */
class RehearsalStockTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void aRehearsalsStockLivesUnderItsOwnPrefixAndTouchesNoRealKey() {
        UnifiedJedis redis = SERVER.client();
        // the node id lease is the instance's, taken before the rehearsal (docs/rehearsal.md: not twinned)
        TestStock stock = TestStock.leased(redis, Clock.systemUTC(), new ReservationSettings("ordering", 2_000,
                java.time.Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1), seckill.redis.ReplicaAcks.NONE));
        StreamedReservations events = new StreamedReservations(redis, Clock.systemUTC(), new ReservationSettings("ordering",
                2_000, java.time.Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1), seckill.redis.ReplicaAcks.NONE));
        long rehearsal = World.REHEARSAL_IDS_FROM + System.nanoTime() % 1_000_000;
        try {
            TreeMap<String, String> realBefore = realKeys(redis);
            java.util.Set<String> expiring = new java.util.HashSet<>();
            realBefore.keySet().forEach(k -> {
                if (redis.pttl(k) != -1) { // -2: lapsed since it was read, Redis' doing as well
                    expiring.add(k);
                }
            });
            stock.preheat(new PreheatStock(rehearsal, 1, 4, 2, Instant.now().plusSeconds(600)));
            ReservationOutcome outcome = stock.reserve(new ReserveStock(rehearsal, 1, 2, 7, 1, "rehearsal-7"));
            assertThat(outcome, instanceOf(ReservationOutcome.Reserved.class));
            assertThat(((ReservationOutcome.Reserved) outcome).id().activityId(), is(rehearsal));

            assertUnchanged(realBefore, expiring, realKeys(redis));
            StockBuckets keys = StockBuckets.of(rehearsal, 1, 2);
            int home = StockBuckets.homeBucket(7, 2);
            assertThat(redis.get(keys.stock(home)), is("1"));
            assertThat(keys.stock(home), startsWith("rh:"));
            assertThat(TestRedis.recorded(redis, keys.events(home)).size(), is(1));
            assertThat(events.activeStreams(World.REHEARSAL), hasItem(keys.events(home)));
            assertThat(events.activeStreams(World.REHEARSAL), everyItem(startsWith("rh:")));
            assertThat(events.activeStreams(), not(hasItem(keys.events(home))));
            assertThat(events.activeStreams(), everyItem(startsWith("sk:")));

            assertThrows(IllegalArgumentException.class, () -> events.registerStreams(List.of(keys.events(home))));
            assertThrows(IllegalArgumentException.class,
                    () -> events.registerStreams(World.REHEARSAL, List.of(StockBuckets.of(7, 1, 1).events(0))));
            redis.zrem(StockBuckets.streamRegistry(World.REHEARSAL), keys.events(home));
            assertThat("a lost member is put back in its own world's registry",
                    events.registerStreams(World.REHEARSAL, List.of(keys.events(home))), is(List.of(keys.events(home))));
            assertThat(events.activeStreams(World.REHEARSAL), hasItem(keys.events(home)));
            assertUnchanged(realBefore, expiring, realKeys(redis));
        } finally {
            stock.releaseLease();
            for (int b = 0; b < 2; b++) {
                StockBuckets keys = StockBuckets.of(rehearsal, 1, 2);
                redis.del(redis.keys(World.REHEARSAL.prefix() + keys.tag(b).replace("{", "\\{").replace("}", "\\}") + "*")
                        .toArray(String[]::new));
                redis.zrem(StockBuckets.streamRegistry(World.REHEARSAL), keys.events(b));
            }
        }
    }

    /**
     * Step 6 of docs/rehearsal.md: a bucket refusing an id it gave out already (ID_TAKEN: another instance
     * minted under this node id too) makes the instance replace its node id lease, which writes sk:node-seq and
     * sk:node:<n>. A real bucket still does; a rehearsal's bucket is answered as not reserved, not in doubt
     * (503 BUSY at the route), with the lease kept and no real key written. The collision is made by hand: the
     * clock stands still, so the next id is the last one plus one, and it is put in the bucket's minted ids.
     */
    @Test
    void aRehearsalBucketRefusingAnIdItGaveOutIsBusyAndKeepsTheNodeId() {
        UnifiedJedis redis = SERVER.client();
        Clock frozen = Clock.fixed(Instant.now(), java.time.ZoneOffset.UTC);
        TestStock stock = TestStock.leased(redis, frozen, new ReservationSettings("ordering", 2_000,
                java.time.Duration.ofSeconds(30), new CoalescingSettings(false, 32, 0, 1), seckill.redis.ReplicaAcks.NONE));
        long real = 900_000_000_000L + System.nanoTime() % 1_000_000;
        long rehearsal = World.REHEARSAL_IDS_FROM + System.nanoTime() % 1_000_000;
        StockBuckets realKeys = StockBuckets.of(real, 1, 1);
        StockBuckets rehearsalKeys = StockBuckets.of(rehearsal, 1, 1);
        try {
            stock.preheat(new PreheatStock(real, 1, 10, 1, Instant.now().plusSeconds(600)));
            stock.preheat(new PreheatStock(rehearsal, 1, 10, 1, Instant.now().plusSeconds(600)));

            // a real bucket: the node id is replaced (so the collision below is one the instance acts on)
            ReservationId first = reserved(stock.reserve(new ReserveStock(real, 1, 1, 7, 1, "real-7")));
            redis.hset(realKeys.served(0), new ReservationId(real, 1, 0, first.sequence() + 1).toString(), "99");
            ReservationId second = reserved(stock.reserve(new ReserveStock(real, 1, 1, 8, 1, "real-8")));
            long node = ReservationSequence.nodeOf(second.sequence());
            assertThat("a real bucket's collision replaces the node id", node,
                    not(ReservationSequence.nodeOf(first.sequence())));

            // a rehearsal's bucket: busy, nothing taken, the same node id, no real key written
            ReservationId mine = reserved(stock.reserve(new ReserveStock(rehearsal, 1, 1, 7, 1, "rehearsal-7")));
            assertThat(ReservationSequence.nodeOf(mine.sequence()), is(node));
            ReservationId taken = new ReservationId(rehearsal, 1, 0, mine.sequence() + 1);
            redis.hset(rehearsalKeys.served(0), taken.toString(), "99");
            TreeMap<String, String> realBefore = realKeys(redis);
            java.util.Set<String> expiring = new java.util.HashSet<>();
            realBefore.keySet().forEach(k -> {
                if (redis.pttl(k) != -1 && !k.startsWith("sk:node:")) {
                    expiring.add(k);
                }
            });
            ReservationUnavailable busy = assertThrows(ReservationUnavailable.class,
                    () -> stock.reserve(new ReserveStock(rehearsal, 1, 1, 8, 1, "rehearsal-8")));
            assertThat("nothing was reserved: not in doubt (503 BUSY)", busy.inDoubt(), is(false));
            assertThat(busy.getMessage(), org.hamcrest.Matchers.containsString(taken.toString()));
            assertUnchanged(realBefore, expiring, realKeys(redis));
            assertThat(redis.get(rehearsalKeys.stock(0)), is("9"));
            assertThat(TestRedis.recorded(redis, rehearsalKeys.events(0)).size(), is(1));
            // the buyer asks again: a fresh id under the same node id
            ReservationId again = reserved(stock.reserve(new ReserveStock(rehearsal, 1, 1, 8, 1, "rehearsal-8")));
            assertThat(ReservationSequence.nodeOf(again.sequence()), is(node));
            assertThat(redis.get(rehearsalKeys.stock(0)), is("8"));
        } finally {
            stock.releaseLease();
            for (StockBuckets keys : List.of(realKeys, rehearsalKeys)) {
                String prefix = World.of(keys == realKeys ? real : rehearsal).prefix();
                redis.del(redis.keys(prefix + keys.tag(0).replace("{", "\\{").replace("}", "\\}") + "*")
                        .toArray(String[]::new));
                redis.zrem(StockBuckets.streamRegistry(World.of(keys == realKeys ? real : rehearsal)), keys.events(0));
            }
        }
    }

    private static ReservationId reserved(ReservationOutcome outcome) {
        assertThat(outcome, instanceOf(ReservationOutcome.Reserved.class));
        return ((ReservationOutcome.Reserved) outcome).id();
    }

    @Test
    void eachWorldsNamespaceIsBoundToItsOwnLedger() {
        UnifiedJedis redis = SERVER.client();
        BindingTheNamespace binding = new BindingTheNamespace(redis);
        redis.del("rh:ledger");
        // the real binding as it was: on a shared Redis (CI's) a binding left behind by this test made every
        // later service in the same database refuse to start (another ledger's namespace)
        String realBefore = redis.get("sk:ledger");
        try {
            String realOwner = binding.bindTo("real-ledger-" + System.nanoTime());
            assertThat(redis.get("sk:ledger"), is(realOwner));
            assertThat(binding.owner(World.REHEARSAL).isPresent(), is(false));
            assertThat(binding.bindTo(World.REHEARSAL, "shadow-ledger"), is("shadow-ledger"));
            assertThat(binding.bindTo(World.REHEARSAL, "another-shadow-ledger"), is("shadow-ledger"));
            assertThat("the real binding is untouched", redis.get("sk:ledger"), is(realOwner));
            assertThat(binding.owner(), is(java.util.Optional.of(realOwner)));
        } finally {
            redis.del("rh:ledger");
            if (realBefore == null) {
                redis.del("sk:ledger");
            } else {
                redis.set("sk:ledger", realBefore);
            }
        }
    }

    /**
     * No real key written or changed; one gone only if it had a TTL (other tests' rate windows lapse
     * meanwhile: expiring is Redis' doing, not the rehearsal's).
     */
    private static void assertUnchanged(TreeMap<String, String> before, java.util.Set<String> expiring,
                                        TreeMap<String, String> after) {
        after.forEach((key, contents) -> assertThat("real key " + key, contents, is(before.get(key))));
        before.keySet().stream().filter(k -> !after.containsKey(k))
                .forEach(k -> assertThat("real key " + k + " is gone without a TTL", expiring.contains(k), is(true)));
    }

    /** Every sk: key with its type and size (what a rehearsal must leave as it was, lease keys aside: their TTL moves). */
    private static TreeMap<String, String> realKeys(UnifiedJedis redis) {
        TreeMap<String, String> keys = new TreeMap<>();
        for (String key : redis.keys("sk:*")) {
            String type = redis.type(key);
            String contents = switch (type) {
                case "string" -> redis.get(key);
                case "hash" -> new TreeMap<>(redis.hgetAll(key)).toString();
                case "zset" -> redis.zrangeWithScores(key, 0, -1).toString();
                case "stream" -> Long.toString(redis.xlen(key));
                case "set" -> new java.util.TreeSet<>(redis.smembers(key)).toString();
                case "list" -> redis.lrange(key, 0, -1).toString();
                default -> type;
            };
            if (!type.equals("none")) {
                keys.put(key, type + " " + contents);
            }
        }
        return keys;
    }
}
