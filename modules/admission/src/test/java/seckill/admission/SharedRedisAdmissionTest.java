package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * Two independent admission stacks (each with its own Redis connections, as two service instances
 * have) over one real Redis: they share the global rate through leases, admission itself makes no
 * Redis call for an admitted attempt (the buyer's window is the reservation call's), and a sold-out
 * flag raised by one is answered by the other from memory. Always on a redis-server of its own: the
 * counts of script calls it asserts ({@code INFO commandstats}) are the whole server's, and another run
 * on a shared server adds its own (a CI rehearsal beside other test runs counted 17 for 12).
 */
class SharedRedisAdmissionTest {

    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.own();

    private final Clock clock = Clock.systemUTC();

    @Test
    void aSoldOutFlagRaisedOnOneInstanceStopsRedisCallsOnTheOther() throws Exception {
        long activity = 800_000 + System.nanoTime() % 100_000;
        try (UnifiedJedis a = new JedisPooled(REDIS.uri()); UnifiedJedis b = new JedisPooled(REDIS.uri())) {
            SoldOutBroadcast onA = broadcast(a);
            SoldOutBroadcast onB = broadcast(b);
            try {
                AdmittingPurchases admissionB = admitting(b, onB);
                await(() -> numSub() >= 2);
                PurchaseAttempt attempt = new PurchaseAttempt(activity, 1, 42, "",
                        new SaleWindow(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600)), Optional.empty());

                // control: without the flag B admits, and leaves the buyer's window to the reservation call
                long before = evalshaCalls();
                assertThat(admissionB.judge(attempt), instanceOf(AdmissionDecision.Admitted.class));
                assertThat("admission itself makes no script call", evalshaCalls(), is(before));

                onA.soldOut(activity, 1);
                await(() -> onB.flags().isSet(activity, 1));
                long flagged = evalshaCalls();
                for (int i = 0; i < 100; i++) {
                    assertThat(admissionB.judge(attempt), instanceOf(AdmissionDecision.SoldOut.class));
                }
                assertThat("INFO commandstats: no script call while the flag is up", evalshaCalls(), is(flagged));

                onA.restocked(activity, 1);
                await(() -> !onB.flags().isSet(activity, 1));
            } finally {
                onA.stop();
                onB.stop();
            }
        }
    }

    /**
     * Issue #34 (docs/rehearsal.md): a rehearsal's sold-out flag travels on rh:soldout, never on the real
     * sk:soldout, and still reaches the other instance; a rehearsal's message on the real channel is ignored.
     */
    @Test
    void aRehearsalsSoldOutFlagTravelsOnItsOwnChannel() throws Exception {
        // ids no other test (nor another service on this Redis: channels span every db) uses
        long real = 934_000_000_000L + System.nanoTime() % 100_000;
        long rehearsal = seckill.redis.World.REHEARSAL_IDS_FROM + real;
        try (UnifiedJedis a = new JedisPooled(REDIS.uri()); UnifiedJedis b = new JedisPooled(REDIS.uri());
             redis.clients.jedis.Jedis spy = new redis.clients.jedis.Jedis(java.net.URI.create(REDIS.uri()))) {
            SoldOutBroadcast onA = broadcast(a);
            SoldOutBroadcast onB = broadcast(b);
            java.util.List<String> onRealChannel = new java.util.concurrent.CopyOnWriteArrayList<>();
            redis.clients.jedis.JedisPubSub listener = new redis.clients.jedis.JedisPubSub() {
                @Override
                public void onMessage(String channel, String message) {
                    if (message.contains(Long.toString(real))) {
                        onRealChannel.add(message);
                    }
                }
            };
            Thread spying = Thread.ofPlatform().daemon(true).start(() -> spy.subscribe(listener, SoldOutBroadcast.CHANNEL + databaseSuffix()));
            try {
                await(() -> numSub() >= 3 && numSub(SoldOutBroadcast.REHEARSAL_CHANNEL + databaseSuffix()) >= 2);
                onA.soldOut(rehearsal, 1);
                await(() -> onB.flags().isSet(rehearsal, 1));
                onA.soldOut(real, 1);
                await(() -> onRealChannel.size() == 1);
                assertThat("only the real activity's flag on the real channel", onRealChannel,
                        is(java.util.List.of("S " + real + " 1")));

                a.publish(SoldOutBroadcast.CHANNEL + databaseSuffix(), "S " + (rehearsal + 1) + " 1");
                a.publish(SoldOutBroadcast.REHEARSAL_CHANNEL + databaseSuffix(), "S " + (rehearsal + 2) + " 1");
                await(() -> onB.flags().isSet(rehearsal + 2, 1));
                assertThat("a rehearsal's flag on the real channel is not taken", onB.flags().isSet(rehearsal + 1, 1), is(false));
            } finally {
                listener.unsubscribe();
                spying.join(5_000);
                onA.stop();
                onB.stop();
            }
        }
    }

    @Test
    void twoInstancesShareTheGlobalRateAndTheExcessCostsNoRedisCall() {
        long activity = 600_000 + System.nanoTime() % 100_000;
        // one second for the whole test: the budget is the second's, and this one never ends
        Clock second = Clock.fixed(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plusMillis(100),
                java.time.ZoneOffset.UTC);
        try (UnifiedJedis a = new JedisPooled(REDIS.uri()); UnifiedJedis b = new JedisPooled(REDIS.uri())) {
            SoldOutBroadcast flagsA = broadcast(a);
            SoldOutBroadcast flagsB = broadcast(b);
            try {
                AdmittingPurchases onA = admitting(a, flagsA, second);
                AdmittingPurchases onB = admitting(b, flagsB, second);
                // scripts loaded, connections open: what follows counts only the sale's calls
                onA.judge(attempt(activity + 1, 1, second));
                onB.judge(attempt(activity + 1, 2, second));
                onA.switches.set(100, 1000, 30, false);
                onB.switches.set(100, 1000, 30, false);
                long before = evalshaCalls();
                long admitted = 0;
                long refusedGlobal = 0;
                for (int i = 0; i < 200; i++) {
                    for (AdmittingPurchases instance : List.of(onA, onB)) {
                        AdmissionDecision decision = instance.judge(attempt(activity, 1_000 + admitted + refusedGlobal, second));
                        if (decision instanceof AdmissionDecision.Admitted) {
                            admitted++;
                        } else if (decision instanceof AdmissionDecision.Throttled t && t.limit().equals("GLOBAL")) {
                            refusedGlobal++;
                        }
                    }
                }
                assertThat("30 a second across both instances", admitted, is(30L));
                assertThat(refusedGlobal, is(370L));
                // 10 leases of 3 (a tenth of the rate), one "spent" answer per instance; the 30 admitted
                // made no call of their own (their window is the reservation call's), the 370 refused none
                assertThat("INFO commandstats", evalshaCalls() - before, is(10L + 2));
            } finally {
                flagsA.stop();
                flagsB.stop();
            }
        }
    }

    private static PurchaseAttempt attempt(long activity, long user, Clock clock) {
        return new PurchaseAttempt(activity, 1, user, "",
                new SaleWindow(clock.instant().minusSeconds(5), clock.instant().plusSeconds(600)), Optional.empty());
    }

    private AdmittingPurchases admitting(UnifiedJedis redis, SoldOutBroadcast broadcast, Clock clock) {
        AdmissionSwitches switches = new AdmissionSwitches();
        switches.set(100, 1000, 0, false);
        return new AdmittingPurchases(clock, broadcast, switches, null, redis, null, 1);
    }

    private static PurchaseAttempt attempt(long activity, long user) {
        return new PurchaseAttempt(activity, 1, user, "",
                new SaleWindow(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600)), Optional.empty());
    }

    private SoldOutBroadcast broadcast(UnifiedJedis redis) {
        SoldOutBroadcast broadcast = new SoldOutBroadcast(redis, 5);
        broadcast.init();
        broadcast.listen(null);
        return broadcast;
    }

    private AdmittingPurchases admitting(UnifiedJedis redis, SoldOutBroadcast broadcast) {
        return admitting(redis, broadcast, clock);
    }

    private static long numSub() {
        return numSub(SoldOutBroadcast.CHANNEL + databaseSuffix());
    }

    /** The sold-out channels carry the database's number except on database 0 (SoldOutAcrossDatabasesTest). */
    private static String databaseSuffix() {
        int database = redis.clients.jedis.util.JedisURIHelper.getDBIndex(java.net.URI.create(REDIS.uri()));
        return database == 0 ? "" : ":db" + database;
    }

    private static long numSub(String channel) {
        Object reply = REDIS.client().sendCommand(redis.clients.jedis.Protocol.Command.PUBSUB, "NUMSUB", channel);
        java.util.List<?> list = (java.util.List<?>) reply;
        return ((Number) list.get(1)).longValue();
    }

    private static long evalshaCalls() {
        for (String line : REDIS.client().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }
}
