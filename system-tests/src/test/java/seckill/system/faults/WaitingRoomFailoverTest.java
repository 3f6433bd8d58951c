package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The waiting room's bounds under a Redis pause and a Sentinel failover (issue #33, docs/queue.md "What it
 * guarantees, and what a Redis failover does to the line"), in front of a master, two replicas and three
 * Sentinels this test starts on loopback ({@link SentinelTopology}; replica acknowledgements required, 1 by
 * default with Sentinel). Buyers join a line moving at a small rate, wait, are called, half of them buy with
 * their pass (202), half hold it; more buyers keep joining. Then the master's writes are paused
 * ({@code CLIENT PAUSE … WRITE}) for three seconds while the line moves, and later the master is killed with
 * SIGKILL, a replica promoted and the old master restarted as a replica. Read from Redis and the ledger:
 * the per-second counts {@code sk:{q:a<id>}:s<second>} of every master that held the line, summed, and the
 * buyers actually called (the passes they were shown, by the second they were called in) never exceed the
 * rate, but for once by one tick's calls; every buyer told a place still holds it in Redis (in line, called,
 * served or expired: never gone); every buyer told 202 ends with exactly one order; no buyer has two.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.queue.enabled", value = "true")
@AddConfig(key = "seckill.queue.rate", value = "" + WaitingRoomFailoverTest.RATE)
@AddConfig(key = "seckill.queue.tick-millis", value = "" + WaitingRoomFailoverTest.TICK_MILLIS)
@AddConfig(key = "seckill.queue.pass-seconds", value = "" + WaitingRoomFailoverTest.PASS_SECONDS)
class WaitingRoomFailoverTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    static final int RATE = 4;
    static final int TICK_MILLIS = 50;
    static final int PASS_SECONDS = 40;
    /**
     * What docs/queue.md lets a failover add, once: one tick's calls, at most two ticks' share of the rate,
     * ceil(rate × 2 × tick ÷ 1 s) (admit.lua). Before 2026-12-03 a tick after the line stood still (the write
     * pause) could call the second's whole budget at once: 8 in one second at a rate of 4, summed over the
     * master the pause made Sentinel depose and the one it promoted.
     */
    private static final long ONE_TICK = (RATE * 2L * TICK_MILLIS + 999) / 1000;
    private static final long SKU = 7341;
    private static final int FIRST_BUYERS = 30;

    /** One buyer as the test follows them. */
    private static final class Buyer {
        final long id;
        final boolean buys;
        volatile long place;
        volatile String ticket;
        volatile String reservation;
        /** The passes shown to them, by expiry (ms). */
        final Map<Long, String> passes = new ConcurrentHashMap<>();
        final List<String> states = new CopyOnWriteArrayList<>();

        Buyer(long id, boolean buys) {
            this.id = id;
            this.buys = buys;
        }
    }

    private final Map<Long, Buyer> told = new ConcurrentHashMap<>();
    private final List<String> oddAnswers = new CopyOnWriteArrayList<>();
    /** The line's per-second counts as read on each master (port → second → highest count seen). */
    private final Map<Integer, Map<Long, Long>> counts = new ConcurrentHashMap<>();
    /**
     * What a promoted master held of each second's count when first read as master: replicated from the old
     * one, so already counted there; only the rise above it is its own calls.
     */
    private final Map<Integer, Map<Long, Long>> inherited = new ConcurrentHashMap<>();
    /** The masters the Sentinels named, in order, with the time (ms) each was first read as master. */
    private final Map<Integer, Long> masters = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private final AtomicBoolean stop = new AtomicBoolean();
    private SaleFixture sale;
    private long activity;
    /** Whether every other buyer buys at their turn (else all hold their passes). */
    private volatile boolean buying = true;

    @BeforeEach
    void freshFollowers() {
        stop.set(false);
        told.clear();
        oddAnswers.clear();
        counts.clear();
        inherited.clear();
        masters.clear();
        buying = true;
        // a method before this one may have failed the master over: start from a whole group (every replica
        // online at the master the Sentinels name), as the line's writes wait for all of them
        SaleFixture.await("every replica online", Duration.ofSeconds(90),
                () -> TOPOLOGY.onlineReplicas() == TOPOLOGY.replicasNow().size());
    }

    @Test
    void aPausedAndAFailedOverMasterNeitherCallBeyondTheRateNorLoseAPlaceOrA202() throws Exception {
        sale = new SaleFixture(target.getUri(), db);
        activity = sale.createOpenActivity(SKU, 500, 1);
        long firstBuyer = activity * 1_000_000;
        for (int i = 0; i < FIRST_BUYERS; i++) {
            HttpResponse<String> joined = joinOnceSettled(firstBuyer + i);
            assertThat(joined.body(), joined.statusCode(), is(200));
        }
        List<Long> joinedDuringPause = new CopyOnWriteArrayList<>();
        List<Integer> pauseAnswers = new CopyOnWriteArrayList<>();
        AtomicBoolean paused = new AtomicBoolean();
        try (ExecutorService buyers = Executors.newVirtualThreadPerTaskExecutor(); StopOnExit followers = new StopOnExit()) {
            for (long id = firstBuyer; id < firstBuyer + FIRST_BUYERS; id++) {
                Buyer buyer = told.get(id);
                buyers.submit(() -> follow(buyer));
            }
            Thread sampler = Thread.ofPlatform().daemon().name("line-counts").start(this::sampleCounts);
            // more buyers keep joining through the faults, one every 250 ms (each followed like the first)
            Thread joiner = Thread.ofPlatform().daemon().name("joiner").start(() -> {
                long next = firstBuyer + FIRST_BUYERS;
                while (!stop.get()) {
                    long id = next++;
                    boolean duringPause = paused.get();
                    HttpResponse<String> joined = join(id);
                    if (duringPause) {
                        joinedDuringPause.add(id);
                        pauseAnswers.add(joined.statusCode());
                    }
                    if (joined.statusCode() == 200) {
                        buyers.submit(() -> follow(told.get(id)));
                    }
                    sleep(250);
                }
            });

            SaleFixture.await("buyers called and some bought", Duration.ofSeconds(60), () -> told.values().stream()
                    .filter(b -> b.reservation != null).count() >= 3);

            // (1) the master's writes paused for 3 s while the line moves: the line stops, nothing is called blind
            HostAndPort oldMaster = TOPOLOGY.master();
            paused.set(true);
            try (Jedis master = new Jedis(oldMaster)) {
                master.clientPause(3_000, ClientPauseMode.WRITE);
            }
            sleep(3_000);
            paused.set(false);
            long calledAfterPause = called();
            SaleFixture.await("the line moving again after the pause", Duration.ofSeconds(30),
                    () -> called() > calledAfterPause);
            sleep(2_000);

            // (2) SIGKILL: whatever the master had not sent its replicas is gone with it
            ProcessHandle.of(SentinelTopology.processId(oldMaster)).orElseThrow().destroyForcibly();
            SaleFixture.await("a replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));
            long calledAfterFailover = called();
            // with min-replica-acks: all the line's writes wait for the killed master too (the Sentinels list it
            // as a replica they may promote once it answers): it is brought back as an operator would
            sleep(3_000);
            TOPOLOGY.restartAsReplica(oldMaster);
            SaleFixture.await("two replicas again", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
            SaleFixture.await("the line moving on the new master", Duration.ofSeconds(60),
                    () -> called() > calledAfterFailover);
            sleep(4_000);
            stop.set(true);
            joiner.join();
            sampler.join();
        }

        // answers: the pause was told as 503 QUEUE_UNAVAILABLE, never an error or a wrong answer
        assertThat("answers other than 200/503/410/403: " + oddAnswers, oddAnswers, empty());
        assertThat("joins during the pause " + pauseAnswers, pauseAnswers.contains(503), is(true));

        Map<Long, Long> perSecond = assertCountsWithinTheRate();
        Map<Long, Long> callsPerSecond = assertCallsWithinTheRate();
        assertThat(callsPerSecond.values().stream().mapToLong(Long::longValue).sum(), greaterThan(20L));
        assertNoPlaceLost();

        // every 202 is exactly one order; nobody has two
        Map<Long, String> reserved = new TreeMap<>();
        told.values().stream().filter(b -> b.reservation != null).forEach(b -> reserved.put(b.id, b.reservation));
        assertThat(reserved.size(), greaterThan(5));
        assertEachOrderedOnce(reserved);
        System.out.println("waiting room pause and failover: " + told.size() + " buyers told a place, "
                + reserved.size() + " bought, masters (port=first read ms) " + masters + ", calls per second "
                + callsPerSecond + ", counts per second " + perSecond);
    }

    @Test
    void aTickTheReplicasNeverGotHoldsTheLineAndItsPassesStillBuyAfterTheFailover() throws Exception {
        SaleFixture.await("two replicas online", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
        sale = new SaleFixture(target.getUri(), db);
        buying = false;
        activity = sale.createOpenActivity(SKU + 1, 500, 1);
        long firstBuyer = activity * 1_000_000;
        for (int i = 0; i < FIRST_BUYERS; i++) {
            HttpResponse<String> joined = joinOnceSettled(firstBuyer + i);
            assertThat(joined.body(), joined.statusCode(), is(200));
        }
        HostAndPort oldMaster = TOPOLOGY.master();
        long calledBefore;
        long calledWhileFrozen;
        List<Integer> frozenJoins = new ArrayList<>();
        try (ExecutorService buyers = Executors.newVirtualThreadPerTaskExecutor(); StopOnExit followers = new StopOnExit()) {
            told.values().forEach(buyer -> buyers.submit(() -> follow(buyer)));
            Thread sampler = Thread.ofPlatform().daemon().name("line-counts").start(this::sampleCounts);
            SaleFixture.await("the line moving", Duration.ofSeconds(30), () -> called() >= 4);

            // both replicas frozen: the master's writes reach none of them, no tick is acknowledged
            // the master's replicas now (after another test's failover, not the ones started as replicas)
            List<Long> replicaPids;
            try (Jedis master = new Jedis(oldMaster)) {
                replicaPids = master.info("replication").lines().filter(l -> l.matches("slave\\d+:.*"))
                        .map(l -> l.replaceAll(".*port=(\\d+).*", "$1"))
                        .map(port -> SentinelTopology.processId(new HostAndPort("127.0.0.1", Integer.parseInt(port))))
                        .toList();
            }
            assertThat(replicaPids.size(), is(2));
            replicaPids.forEach(pid -> signal("STOP", pid));
            try {
                calledBefore = called();
                for (int i = 0; i < 6; i++) {
                    // a join not acknowledged is 503: that buyer was never told a place
                    frozenJoins.add(join(firstBuyer + FIRST_BUYERS + i).statusCode());
                    sleep(500);
                }
                calledWhileFrozen = called() - calledBefore;
                // SIGKILL: what the replicas never got is gone with it
                ProcessHandle.of(SentinelTopology.processId(oldMaster)).orElseThrow().destroyForcibly();
            } finally {
                replicaPids.forEach(pid -> signal("CONT", pid));
            }
            SaleFixture.await("a replica promoted", Duration.ofSeconds(30), () -> !TOPOLOGY.master().equals(oldMaster));
            long calledAfterFailover = called();
            // the killed master back first, as an operator brings it (min-replica-acks: all waits for it)
            TOPOLOGY.restartAsReplica(oldMaster);
            SaleFixture.await("the line moving on the new master", Duration.ofSeconds(60),
                    () -> called() > calledAfterFailover + 4);
            stop.set(true);
            sampler.join();
        }
        // the line held while no replica acknowledged: at most one tick's calls on the master alone
        assertThat("called on the master while its replicas were frozen", calledWhileFrozen,
                lessThanOrEqualTo(ONE_TICK));
        assertThat("joins while the replicas were frozen " + frozenJoins, frozenJoins.stream().allMatch(c -> c == 503),
                is(true));
        assertThat("answers other than 200/503/410/403: " + oddAnswers, oddAnswers, empty());

        // the calls the new master does not know (a pass shown whose expiry it never had) are that one tick's
        Map<Long, String> lostCalls = new TreeMap<>();
        try (Jedis master = new Jedis(TOPOLOGY.master())) {
            for (Buyer buyer : told.values()) {
                Double expiry = master.zscore("sk:{q:a" + activity + "}:passes", Long.toString(buyer.id));
                String done = master.hget("sk:{q:a" + activity + "}:done", Long.toString(buyer.id));
                for (var pass : buyer.passes.entrySet()) {
                    if (done == null && (expiry == null || expiry.longValue() != pass.getKey())) {
                        lostCalls.putIfAbsent(buyer.id, pass.getValue());
                    }
                }
            }
        }
        assertThat("calls the failover lost " + lostCalls.keySet(), (long) lostCalls.size(),
                lessThanOrEqualTo(ONE_TICK));
        // nobody holding a pass loses it: a pass the new master never saw still buys
        Map<Long, String> reserved = new TreeMap<>();
        for (var lost : lostCalls.entrySet()) {
            Buyer buyer = told.get(lost.getKey());
            buy(buyer, lost.getValue());
            assertThat("a pass of the lost tick buys", buyer.reservation != null, is(true));
            reserved.put(buyer.id, buyer.reservation);
        }
        assertCountsWithinTheRate();
        assertCallsWithinTheRate();
        assertNoPlaceLost();
        assertEachOrderedOnce(reserved);
        SaleFixture.await("two replicas again", Duration.ofSeconds(60), () -> TOPOLOGY.onlineReplicas() == 2);
        System.out.println("waiting room replicas frozen then failover: called while frozen " + calledWhileFrozen
                + ", calls lost " + lostCalls.keySet() + ", calls per second " + callsPerSecond());
    }

    /** The line's per-second counts, summed over every master that held it, within the rate; those sums. */
    private Map<Long, Long> assertCountsWithinTheRate() {
        Map<Long, Long> perSecond = new TreeMap<>();
        // a promoted master's first reading is inherited only as far as an earlier master held that second
        // (calls it made itself before it was first read are its own)
        counts.forEach((port, seconds) -> seconds.forEach((second, n) -> {
            long earlier = counts.entrySet().stream().filter(c -> !c.getKey().equals(port))
                    .mapToLong(c -> c.getValue().getOrDefault(second, 0L)).max().orElse(0);
            long replicated = Math.min(earlier, inherited.getOrDefault(port, Map.of()).getOrDefault(second, 0L));
            perSecond.merge(second, n - replicated, Long::sum);
        }));
        String read = "read " + counts + ", inherited " + inherited + ", masters (port=first read ms) " + masters;
        assertThat(read, perSecond.size(), greaterThan(1));
        assertWithinTheRate("the line's per-second counts (" + read + ")", perSecond);
        return perSecond;
    }

    /** The buyers actually called, by the second of their call (a pass's expiry less its lifetime), within the rate. */
    private Map<Long, Long> assertCallsWithinTheRate() {
        Map<Long, Long> callsPerSecond = callsPerSecond();
        assertWithinTheRate("the buyers called (by their passes)", callsPerSecond);
        return callsPerSecond;
    }

    private Map<Long, Long> callsPerSecond() {
        Map<Long, Long> callsPerSecond = new TreeMap<>();
        for (Buyer buyer : told.values()) {
            for (long expiry : buyer.passes.keySet()) {
                callsPerSecond.merge(Math.floorDiv(expiry - PASS_SECONDS * 1000L, 1000), 1L, Long::sum);
            }
        }
        return callsPerSecond;
    }

    /**
     * No place told is lost: every buyer told a place holds it in Redis on the master now, and reads as in line,
     * called, served or expired at that place (never NOT_IN_LINE), asked without the ticket.
     */
    private void assertNoPlaceLost() {
        Map<String, String> places;
        try (Jedis master = new Jedis(TOPOLOGY.master())) {
            places = master.hgetAll("sk:{q:a" + activity + "}:places");
        }
        List<String> lost = new ArrayList<>();
        List<String> notThere = new ArrayList<>();
        for (Buyer buyer : told.values()) {
            String held = places.get(Long.toString(buyer.id));
            if (held == null || Long.parseLong(held) != buyer.place) {
                lost.add(buyer.id + " told place " + buyer.place + ", holds " + held + ", saw " + buyer.states);
            }
            String body = placeOf(buyer.id, null).body();
            String state = SaleFixture.field(body, "state");
            if (!Set.of("WAITING", "YOUR_TURN", "USED", "EXPIRED").contains(state)
                    || SaleFixture.number(body, "place") != buyer.place) {
                notThere.add(buyer.id + " " + body);
            }
        }
        assertThat("buyers told a place whose place Redis lost", lost, empty());
        assertThat(notThere, empty());
    }

    /** Each reservation answered 202 is exactly one order in the ledger; no buyer has two. */
    private void assertEachOrderedOnce(Map<Long, String> reserved) {
        SaleFixture.await("every 202 ordered", Duration.ofSeconds(90), () -> reserved.entrySet().stream()
                .allMatch(r -> sale.ordersOf(r.getValue(), r.getKey()) == 1));
        assertThat(sale.column("SELECT user_id FROM seckill_order WHERE activity_id = ? GROUP BY user_id"
                + " HAVING COUNT(*) > 1", activity), empty());
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            assertThat("kill -" + signal + " " + pid, kill.waitFor(), is(0));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Each second at most the rate; at most one second (a failover's) the rate plus one tick's calls. */
    private static void assertWithinTheRate(String what, Map<Long, Long> perSecond) {
        long over = 0;
        for (long n : perSecond.values()) {
            assertThat(what + ": " + perSecond, n, lessThanOrEqualTo(RATE + ONE_TICK));
            if (n > RATE) {
                over++;
            }
        }
        assertThat(what + ": seconds over the rate " + perSecond, over, lessThanOrEqualTo(1L));
    }

    /** A buyer following their place (without the ticket: a lost place must show), buying with the pass or holding it. */
    private void follow(Buyer buyer) {
        while (!stop.get()) {
            try {
                HttpResponse<String> answer = placeOf(buyer.id, null);
                if (answer.statusCode() == 200) {
                    String state = SaleFixture.field(answer.body(), "state");
                    if (buyer.states.isEmpty() || !buyer.states.getLast().equals(state)) {
                        buyer.states.add(state);
                    }
                    if ("YOUR_TURN".equals(state)) {
                        buyer.passes.put(Instant.parse(SaleFixture.field(answer.body(), "passExpiresAt"))
                                .toEpochMilli(), SaleFixture.field(answer.body(), "pass"));
                        if (buyer.buys && buyer.reservation == null) {
                            buy(buyer, SaleFixture.field(answer.body(), "pass"));
                        }
                    }
                } else if (answer.statusCode() != 503) {
                    oddAnswers.add("place " + buyer.id + ": " + answer.statusCode() + " " + answer.body());
                }
            } catch (RuntimeException e) {
                oddAnswers.add("place " + buyer.id + ": " + e);
            }
            sleep(1_000);
        }
    }

    /** Buys with the pass, retrying a 503 or 429 with the same requestId (a retry can only return the same reservation). */
    private void buy(Buyer buyer, String pass) {
        for (int attempt = 0; attempt < 40; attempt++) {
            HttpResponse<String> answer = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                            sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                    .header("Content-Type", "application/json").header("X-Queue-Pass", pass)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"w-%d\"}"
                            .formatted(SKU, buyer.id))), buyer.id));
            if (answer.statusCode() == 202 || answer.statusCode() == 200) {
                buyer.reservation = SaleFixture.field(answer.body(), "reservationId");
                return;
            }
            if (answer.statusCode() != 503 && answer.statusCode() != 429) {
                // an expired pass (403) after a long halt: the buyer holds no 202
                if (answer.statusCode() != 403) {
                    oddAnswers.add("purchase " + buyer.id + ": " + answer.statusCode() + " " + answer.body());
                }
                return;
            }
            sleep(500);
        }
    }

    /**
     * Before any fault: a join answered 503 QUEUE_UNAVAILABLE (its write not yet acknowledged by every replica
     * while the group settles after an earlier method's failover) is asked again, as a buyer would; joining again
     * keeps the place.
     */
    private HttpResponse<String> joinOnceSettled(long id) throws InterruptedException {
        HttpResponse<String> joined = join(id);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (joined.statusCode() == 503 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            joined = join(id);
        }
        return joined;
    }

    private HttpResponse<String> join(long id) {
        HttpResponse<String> joined = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(queue())
                .POST(HttpRequest.BodyPublishers.noBody()), id));
        if (joined.statusCode() == 200) {
            Buyer buyer = new Buyer(id, buying && id % 2 == 0);
            buyer.place = SaleFixture.number(joined.body(), "place");
            buyer.ticket = SaleFixture.field(joined.body(), "ticket");
            told.put(id, buyer);
        } else if (joined.statusCode() != 503) {
            oddAnswers.add("join " + id + ": " + joined.statusCode() + " " + joined.body());
        }
        return joined;
    }

    private HttpResponse<String> placeOf(long id, String ticket) {
        HttpRequest.Builder request = HttpRequest.newBuilder(queue()).GET();
        if (ticket != null) {
            request.header("X-Queue-Ticket", ticket);
        }
        return sale.send(SaleFixture.asBuyer(request, id));
    }

    private java.net.URI queue() {
        return sale.base.resolve("/api/v1/activities/" + activity + "/queue");
    }

    /** Buyers called so far, as the master the Sentinels name now holds it (0 while none answers). */
    private long called() {
        try (Jedis master = new Jedis(TOPOLOGY.master())) {
            String called = master.hget("sk:{q:a" + activity + "}:meta", "called");
            return called == null ? 0 : Long.parseLong(called);
        } catch (RuntimeException notNow) {
            return 0;
        }
    }

    /** Every 50 ms, the line's per-second counts on the master of the moment (they live 5 s), highest seen kept. */
    private void sampleCounts() {
        String pattern = "sk:{q:a" + activity + "}:s*";
        while (!stop.get()) {
            try {
                HostAndPort master = TOPOLOGY.master();
                try (Jedis jedis = new Jedis(master)) {
                    if (jedis.info("replication").contains("role:master")) {
                        boolean promoted = !counts.isEmpty() && !counts.containsKey(master.getPort());
                        masters.putIfAbsent(master.getPort(), System.currentTimeMillis());
                        Map<Long, Long> seen = counts.computeIfAbsent(master.getPort(), p -> new ConcurrentHashMap<>());
                        Map<Long, Long> before = promoted ? inherited.computeIfAbsent(master.getPort(),
                                p -> new ConcurrentHashMap<>()) : null;
                        for (String key : jedis.keys(pattern)) {
                            String count = jedis.get(key);
                            if (count != null) {
                                long second = Long.parseLong(key.substring(key.lastIndexOf(":s") + 2));
                                seen.merge(second, Long.parseLong(count), Math::max);
                                if (before != null) {
                                    before.put(second, Long.parseLong(count));
                                }
                            }
                        }
                    }
                }
            } catch (RuntimeException notNow) {
                // the master is gone or not yet named: read again
            }
            sleep(50);
        }
    }

    /** Closed before the buyers' executor (declared after it): a failed await stops the followers instead of hanging. */
    private final class StopOnExit implements AutoCloseable {
        @Override
        public void close() {
            stop.set(true);
        }
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
