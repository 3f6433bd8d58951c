package seckill.admission;

import java.net.URI;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Redis pub/sub ignores the logical database: a channel is one for the whole server. Two deployments on
 * one Redis server in different databases (a staging beside a test run, CI's runs, a drill's own
 * deployment) have different stock and different activities under the same ids, so a sold-out flag
 * raised by one must never reach the other: it would answer {@code 410 SOLD_OUT} without asking Redis,
 * to a buyer whose unit is there (found by the ramp's test, branch s46-ramp: a whole step of false 410s,
 * and reproduced by a {@code PUBLISH} from database 0). Real broadcasts, real Redis.
 */
class SoldOutAcrossDatabasesTest {

    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.configuredOrOwn();

    @Test
    void aFlagRaisedByADeploymentOnAnotherDatabaseOfTheServerIsNotTaken() throws Exception {
        URI ours = URI.create(REDIS.uri());
        int database = JedisURIHelper.getDBIndex(ours);
        URI theirs = URI.create(ours.getScheme() + "://" + ours.getRawAuthority() + "/" + (database == 15 ? 14 : database + 1));
        long activity = 700_000 + System.nanoTime() % 100_000;
        try (UnifiedJedis a = new JedisPooled(ours); UnifiedJedis b = new JedisPooled(theirs)) {
            SoldOutBroadcast here = broadcast(a);
            SoldOutBroadcast otherDeployment = broadcast(b);
            SoldOutBroadcast sibling = broadcast(new JedisPooled(ours));
            try {
                awaitSubscribed(here, otherDeployment, sibling);
                assertThat(here.channel(), is(sibling.channel()));
                assertThat("the two databases' channels differ", here.channel().equals(otherDeployment.channel()), is(false));
                // the other deployment's activity of the same id sells out there
                otherDeployment.soldOut(activity, 1);
                // then a sibling instance of this deployment flags another SKU: the control, heard in order
                sibling.soldOut(activity, 2);
                await(() -> here.flags().isSet(activity, 2));
                assertThat("a flag from another database's deployment", here.flags().isSet(activity, 1), is(false));
                // and the other deployment still hears its own
                otherDeployment.soldOut(activity, 3);
                SoldOutBroadcast otherSibling = broadcast(new JedisPooled(theirs));
                try {
                    awaitSubscribed(otherDeployment, otherSibling);
                    otherDeployment.restocked(activity, 3);
                    otherDeployment.soldOut(activity, 4);
                    await(() -> otherSibling.flags().isSet(activity, 4));
                    assertThat(here.flags().isSet(activity, 4), is(false));
                } finally {
                    otherSibling.stop();
                }
            } finally {
                here.stop();
                otherDeployment.stop();
                sibling.stop();
            }
        }
    }

    private static SoldOutBroadcast broadcast(UnifiedJedis redis) {
        SoldOutBroadcast broadcast = new SoldOutBroadcast(redis, 60);
        broadcast.init();
        broadcast.listen(null);
        return broadcast;
    }

    /** Subscriptions are made on their own threads: each broadcast's channel has its subscriber first. */
    private static void awaitSubscribed(SoldOutBroadcast... broadcasts) throws InterruptedException {
        for (SoldOutBroadcast broadcast : broadcasts) {
            await(() -> broadcast.channel() != null);
            java.util.Map<String, Long> counts = new java.util.HashMap<>();
            for (SoldOutBroadcast each : broadcasts) {
                counts.merge(each.channel(), 1L, Long::sum);
            }
            await(() -> counts.entrySet().stream().allMatch(e -> numSub(e.getKey()) >= e.getValue()));
        }
    }

    private static long numSub(String channel) {
        Object reply = REDIS.client().sendCommand(redis.clients.jedis.Protocol.Command.PUBSUB, "NUMSUB", channel);
        return ((Number) ((java.util.List<?>) reply).get(1)).longValue();
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s");
            }
            Thread.sleep(20);
        }
    }
}
