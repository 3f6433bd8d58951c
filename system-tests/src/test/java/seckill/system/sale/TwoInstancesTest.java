package seckill.system.sale;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.util.JedisClusterCRC16;
import seckill.drill.api.InvariantCheck;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * Two service instances over one Redis and one MariaDB: this test's in-process service and a second
 * one in its own JVM, selling a SKU split over three buckets. Every buyer clicks once on each at the
 * same moment; the shared per-buyer limit and the reservation scripts must still give one unit per
 * buyer, every unit sold and no oversell.
 */
@AddConfig(key = "seckill.admission.buyer-rate", value = "1")
class TwoInstancesTest extends ServiceTest {

    private static final long SKU = 4001;

    @Inject
    DevServers devServers;

    private SecondInstance second;

    @AfterEach
    void stopSecond() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void buyersClickingOnBothInstancesGetOneUnitEachAndNothingIsOversold() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        URI other = startSecondInstance(sale);
        SaleFixture otherSale = new SaleFixture(other, db);
        // three buckets: on the cluster run of CI they land on different masters
        String json = """
                {"name":"two instances","startsAt":"%s","endsAt":"%s",
                 "skus":[{"skuId":%d,"stock":100,"perUserLimit":1,"buckets":3}]}""".formatted(
                java.time.Instant.now().minusSeconds(5), java.time.Instant.now().plusSeconds(600), SKU);
        HttpResponse<String> created = sale.createActivity(json, SaleFixture.ADMIN_TOKEN);
        assertThat(created.body(), created.statusCode(), is(201));
        long activity = SaleFixture.number(created.body(), "activityId");
        int buyers = 600;

        Map<Long, List<Integer>> answers = new ConcurrentHashMap<>();
        List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger reserved = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                long user = activity * 100_000 + i;
                for (SaleFixture instance : List.of(sale, otherSale)) {
                    all.add(pool.submit(() -> {
                        gate.await();
                        HttpResponse<String> response = instance.purchase(activity, user, SKU, 1, "two-" + user);
                        // a client honours 503 BUSY (nothing happened; two JVMs on two cores saturate) and 409
                        // PURCHASE_IN_PROGRESS (its other click is taking from a donor bucket) by asking again
                        for (int retry = 0; retry < 50 && (response.body().contains("\"code\":\"BUSY\"")
                                || response.body().contains("\"code\":\"PURCHASE_IN_PROGRESS\"")); retry++) {
                            Thread.sleep(100);
                            response = instance.purchase(activity, user, SKU, 1, "two-" + user);
                        }
                        answers.computeIfAbsent(user, u -> new java.util.concurrent.CopyOnWriteArrayList<>())
                                .add(response.statusCode());
                        if (response.statusCode() >= 500) {
                            problems.add(response.body());
                        }
                        if (response.statusCode() == 202) {
                            reserved.incrementAndGet();
                        }
                        return null;
                    }));
                }
            }
            gate.countDown();
            for (Future<?> f : all) {
                f.get();
            }
        }
        assertThat(reserved.get(), is(100));
        for (List<Integer> codes : answers.values()) {
            assertThat(codes.toString(), codes.stream().filter(c -> c == 202).count() <= 1, is(true));
        }
        // the second click of a buyer who got in was refused by the shared limit or answered with the same id
        assertThat(answers.values().stream().filter(c -> c.contains(202)).filter(c -> !(c.contains(429)
                || c.contains(200) || c.contains(410))).toList() + " " + problems, answers.values().stream()
                .filter(c -> c.contains(202)).filter(c -> !(c.contains(429) || c.contains(200) || c.contains(410)))
                .toList(), empty());
        SaleFixture.await("orders", Duration.ofSeconds(60), () -> sale.orders(activity) == 100);
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(sale.count("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ?", activity),
                is(100L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
        boolean onCluster = config.getOptionalValue("seckill.redis.uri", String.class).orElse("")
                .startsWith("redis-cluster://");
        assertThat(redis instanceof JedisCluster, is(onCluster));
        if (redis instanceof JedisCluster cluster) {
            // the SKU's three buckets live on the cluster's three masters, one each
            Set<String> owners = new HashSet<>();
            for (int b = 0; b < 3; b++) {
                owners.add(ownerOf(cluster, InvariantCheck.bucketKey(activity, SKU, b, 3, "stock")));
            }
            assertThat(owners.toString(), owners, hasSize(3));
        }
    }

    private static String ownerOf(JedisCluster cluster, String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        for (Map.Entry<String, ConnectionPool> node : cluster.getClusterNodes().entrySet()) {
            try (Connection connection = node.getValue().getResource()) {
                if (new Jedis(connection).clusterCountKeysInSlot(slot) > 0) {
                    return node.getKey();
                }
            }
        }
        throw new AssertionError("no master holds " + key);
    }

    private URI startSecondInstance(SaleFixture sale) throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        second = SecondInstance.start(stores, db, "seckill.admission.token-required=false",
                "seckill.admission.buyer-rate=1");
        return second.base();
    }
}
