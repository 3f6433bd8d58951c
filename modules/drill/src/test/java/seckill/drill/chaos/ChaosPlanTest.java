package seckill.drill.chaos;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/** The schedule is a function of the seed alone, and holds what the drill promises to exercise. */
class ChaosPlanTest {

    private static List<Step> draw(long seed) {
        return new ChaosPlan(new SplittableRandom(seed), PlanShape.standard()).draw(60_000, 2);
    }

    /**
     * A schedule without the key loss and eviction that {@code sentinel} and {@code cluster} draw after the
     * moved clocks (a {@code single} schedule as it is): what it was before those topologies drew them.
     */
    private static List<Step> beforeLastFaults(List<Step> all) {
        int n = all.size();
        if (n >= 3 && all.get(n - 2).kind() == Step.Kind.KEY_LOSS && all.get(n - 1).kind() == Step.Kind.EVICTION
                && all.get(n - 3).kind() == Step.Kind.CLOCK_MOVE) {
            return all.subList(0, n - 2);
        }
        return all;
    }

    /** A schedule without the moved clocks (and what came after them): what it was before {@code CLOCK_MOVE} existed. */
    private static List<Step> beforeClockMoves(List<Step> schedule) {
        List<Step> all = beforeLastFaults(schedule);
        int n = all.size();
        while (n > 0 && all.get(n - 1).kind() == Step.Kind.CLOCK_MOVE) {
            n--;
        }
        return all.subList(0, n);
    }

    @Test
    void theSameSeedDrawsTheSameSchedule() {
        assertThat(draw(42), is(draw(42)));
        assertThat(draw(42), is(not(draw(43))));
    }

    private static List<Step> draw(long seed, Topology topology) {
        return new ChaosPlan(new SplittableRandom(seed), PlanShape.standard(), topology).draw(60_000, 2);
    }

    @Test
    void theSameSeedDrawsTheSameScheduleOnEveryTopologyWithItsNodeFaults() {
        for (Topology topology : Topology.values()) {
            assertThat(draw(42, topology), is(draw(42, topology)));
        }
        assertThat(draw(42, Topology.SINGLE), is(draw(42)));
        for (Topology replicated : List.of(Topology.SENTINEL, Topology.CLUSTER)) {
            List<Step> plan = beforeClockMoves(draw(5, replicated));
            assertThat(plan.stream().filter(s -> s.kind().fault()).map(Step::kind).distinct().toList(),
                    containsInAnyOrder(replicated.faults().toArray()));
            // a node fault names its node by shard (and replica number), drawn from the seed too
            plan.stream().filter(s -> s.kind() == Step.Kind.MASTER_KILL || s.kind() == Step.Kind.REPLICA_FREEZE)
                    .forEach(s -> {
                        assertThat(s.instance(), is(-1));
                        assertThat(s.ref() >= 0 && s.ref() < replicated.shards(), is(true));
                    });
        }
        // the cluster's master kills land on more than one shard over a few seeds
        assertThat(java.util.stream.LongStream.range(1, 10).boxed().flatMap(seed -> draw(seed, Topology.CLUSTER).stream())
                .filter(s -> s.kind() == Step.Kind.MASTER_KILL).map(Step::ref).distinct().count(), greaterThan(1L));
    }

    @Test
    void aSingleRedisScheduleHasNoNodeFaultsAndAReplicatedOneNoRedisCut() {
        assertThat(draw(42).stream().map(Step::kind).toList(),
                everyItem(not(anyOf(is(Step.Kind.MASTER_KILL), is(Step.Kind.REPLICA_FREEZE)))));
        assertThat(draw(42, Topology.CLUSTER).stream().map(Step::kind).toList(), everyItem(not(is(Step.Kind.REDIS_CUT))));
        assertThat(draw(42, Topology.SENTINEL).stream().map(Step::kind).toList(), everyItem(not(is(Step.Kind.REDIS_CUT))));
    }

    @Test
    void aScheduleHoldsEveryKindOfStepAndEveryFault() {
        List<Step> plan = draw(42);
        assertThat(plan.stream().map(Step::kind).distinct().toList(), hasItems(Step.Kind.PURCHASE, Step.Kind.RETRY,
                Step.Kind.REUSED_ID, Step.Kind.PAY, Step.Kind.HALT, Step.Kind.RESUME, Step.Kind.HOSTILE));
        assertThat(plan.stream().map(Step::kind).distinct().toList(), hasItems(Topology.SINGLE.faults()
                .toArray(Step.Kind[]::new)));
        assertThat(plan.stream().map(Step::atMillis).toList(), everyItem(lessThan(60_000L)));
        assertThat(plan.stream().filter(s -> s.kind() == Step.Kind.PAY).map(Step::variant).distinct().count(), is(3L));
    }

    @Test
    void faultsOverlap() {
        List<Step> faults = draw(42).stream().filter(s -> s.kind().fault()).toList();
        long overlapping = faults.stream().filter(a -> faults.stream().anyMatch(b -> a != b
                && a.atMillis() < b.atMillis() + b.lengthMillis() && b.atMillis() < a.atMillis() + a.lengthMillis()))
                .count();
        assertThat(overlapping, greaterThan(1L));
    }

    @Test
    void retriesAndReusedIdsReferToAnEarlierPurchaseOfTheSameBuyer() {
        List<Step> plan = draw(7);
        plan.stream().filter(s -> s.kind() == Step.Kind.RETRY || s.kind() == Step.Kind.REUSED_ID).forEach(s -> {
            Step first = plan.get(s.ref());
            assertThat(first.kind(), is(Step.Kind.PURCHASE));
            assertThat(first.buyer(), is(s.buyer()));
            assertThat(first.requestId(), is(s.requestId()));
            assertThat(first.atMillis() <= s.atMillis(), is(true));
        });
    }

    @Test
    void hostilePaymentsAreDrawnAfterEveryOtherStepOneOfEachForgeryForAnEarlierPurchase() {
        // the steps before them end with the second switch flip back, as every schedule did before they existed
        for (long seed : new long[] {42, 7, 11, 23}) {
            List<Step> all = beforeClockMoves(draw(seed));
            int forgeries = ChaosPlan.FORGERIES.size();
            List<Step> hostile = all.subList(all.size() - forgeries, all.size());
            assertThat(hostile.stream().map(Step::kind).distinct().toList(), is(List.of(Step.Kind.HOSTILE_PAY)));
            assertThat(hostile.stream().map(Step::variant).toList(), is(ChaosPlan.FORGERIES));
            assertThat(all.subList(0, all.size() - forgeries).stream().map(Step::kind).toList(),
                    everyItem(not(is(Step.Kind.HOSTILE_PAY))));
            assertThat(all.get(all.size() - forgeries - 1).kind(), is(Step.Kind.SWITCH_FLIP));
            assertThat(hostile.stream().map(Step::kind).map(Step.Kind::fault).toList(), everyItem(is(false)));
            for (Step s : hostile) {
                assertThat(s.atMillis() >= 6_000 && s.atMillis() < 48_000, is(true));
                if (s.ref() >= 0) {
                    Step purchase = all.get(s.ref());
                    assertThat(purchase.kind(), is(Step.Kind.PURCHASE));
                    assertThat(purchase.atMillis() < s.atMillis(), is(true));
                    assertThat(purchase.buyer(), is(s.buyer()));
                    assertThat(purchase.sku(), is(s.sku()));
                }
            }
        }
        // a longer run draws seven a minute, every forgery at least once
        List<Step> twoMinutes = beforeClockMoves(new ChaosPlan(new SplittableRandom(42), PlanShape.standard())
                .draw(120_000, 2));
        assertThat(twoMinutes.stream().filter(s -> s.kind() == Step.Kind.HOSTILE_PAY).count(), is(14L));
        assertThat(twoMinutes.stream().filter(s -> s.kind() == Step.Kind.HOSTILE_PAY).map(Step::variant).distinct()
                .count(), is((long) ChaosPlan.FORGERIES.size()));
        assertThat(draw(42), is(draw(42)));
    }

    @Test
    void keyLossAndEvictionAreDrawnAfterEveryEarlierStepSoASeedsEarlierScheduleStaysItsOwn() {
        for (long seed : new long[] {42, 7, 1, 2, 3, 5, 11, 23}) {
            List<Step> withHostilePayments = beforeClockMoves(draw(seed));
            // the hostile payment callbacks are drawn after everything else (seven a minute): the rest is as before them
            List<Step> all = withHostilePayments.subList(0, withHostilePayments.size() - ChaosPlan.FORGERIES.size());
            // the switch flips are drawn last of all before them (two flips a minute, each flipped back: 4 steps)
            List<Step> flips = all.subList(all.size() - 4, all.size());
            assertThat(flips.stream().map(Step::kind).distinct().toList(), is(List.of(Step.Kind.SWITCH_FLIP)));
            assertThat(flips.get(1).ref(), is(flips.get(0).index()));
            assertThat(flips.get(1).atMillis() - flips.get(0).atMillis() >= 3_000, is(true));
            assertThat(flips.get(1).variant().split("=")[0], is(flips.get(0).variant().split("=")[0]));
            List<Step> plan = all.subList(0, all.size() - 4);
            assertThat(plan.stream().map(Step::kind).toList(), everyItem(not(is(Step.Kind.SWITCH_FLIP))));
            // the earlier kinds are drawn exactly as before: the later faults come right after them
            List<Step> later = plan.subList(plan.size() - 2, plan.size());
            assertThat(later.stream().map(Step::kind).toList(), is(List.of(Step.Kind.KEY_LOSS, Step.Kind.EVICTION)));
            assertThat(plan.subList(0, plan.size() - 2).stream().map(Step::kind).toList(),
                    everyItem(not(anyOf(is(Step.Kind.KEY_LOSS), is(Step.Kind.EVICTION)))));
            for (Step s : later) {
                assertThat(s.atMillis() >= 6_000 && s.atMillis() < 42_000, is(true));
                assertThat(s.lengthMillis() >= 2_000 && s.lengthMillis() < 8_000, is(true));
            }
            Step loss = later.getFirst();
            assertThat(ChaosPlan.KEY_LOSSES.contains(loss.variant()), is(true));
            PlanShape.SkuShape sku = PlanShape.standard().skus().stream().filter(k -> k.skuId() == loss.sku())
                    .findFirst().orElseThrow();
            assertThat(loss.ref() >= 0 && loss.ref() < sku.buckets(), is(true));
            assertThat(ChaosPlan.EVICTIONS.contains(later.getLast().variant()), is(true));
        }
        // seed 42's schedule before these kinds existed: 8 faults drawn, the first step and the counts unchanged
        List<Step> plan = beforeClockMoves(draw(42));
        assertThat(plan.stream().filter(s -> s.kind().fault()).count(), is(10L));
        // every variant comes up over a few seeds
        java.util.Set<String> variants = new java.util.HashSet<>();
        for (long seed = 1; seed <= 30; seed++) {
            draw(seed).stream().filter(s -> s.kind() == Step.Kind.KEY_LOSS || s.kind() == Step.Kind.EVICTION)
                    .forEach(s -> variants.add(s.variant()));
        }
        assertThat(variants, containsInAnyOrder("quiet-bucket", "stream-registry", "node-leases", "noeviction",
                "allkeys-random"));
    }

    /**
     * SHA-256 of seeds 1-30's one-minute schedules and seed 42's two-minute one, per topology, as the code
     * drew them on 2026-12-03 before {@code sentinel} and {@code cluster} drew {@code KEY_LOSS} and
     * {@code EVICTION} (main at 6b9e078): every step, every field ({@link Step}'s record text).
     */
    private static final java.util.Map<Topology, String> SCHEDULES_BEFORE = java.util.Map.of(
            Topology.SINGLE, "1dca763548325cb8ac4c4dd05832ec4955822883c84515d4286b0e0df6844076",
            Topology.SENTINEL, "c67b11a4b01be7b8b5a71c5c02860918ed80dc539c247207c442e3d26c2b347b",
            Topology.CLUSTER, "0682cb00586ab548910ffd79a6a28d12b1a032f65420d2e99c478c7396327867");

    private static String digest(Topology topology, java.util.function.UnaryOperator<List<Step>> part) {
        StringBuilder all = new StringBuilder();
        for (long seed = 1; seed <= 30; seed++) {
            all.append(part.apply(draw(seed, topology))).append('\n');
        }
        all.append(part.apply(new ChaosPlan(new SplittableRandom(42), PlanShape.standard(), topology)
                .draw(120_000, 2))).append('\n');
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(all.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void sentinelAndClusterDrawKeyLossAndEvictionLastOfAllSoEveryEarlierStepOfASeedIsWhatItWas() {
        // a single Redis schedule is exactly what it was, whole
        assertThat(digest(Topology.SINGLE, all -> all), is(SCHEDULES_BEFORE.get(Topology.SINGLE)));
        java.util.Set<String> variants = new java.util.HashSet<>();
        for (Topology replicated : List.of(Topology.SENTINEL, Topology.CLUSTER)) {
            // without its last two steps, every schedule of seeds 1-30 (and 42 over two minutes) is the one drawn before
            assertThat(replicated.toString(), digest(replicated, all -> all.subList(0, all.size() - 2)),
                    is(SCHEDULES_BEFORE.get(replicated)));
            for (long seed = 1; seed <= 30; seed++) {
                List<Step> all = draw(seed, replicated);
                List<Step> last = all.subList(all.size() - 2, all.size());
                assertThat(last.stream().map(Step::kind).toList(), is(List.of(Step.Kind.KEY_LOSS, Step.Kind.EVICTION)));
                assertThat(all.get(all.size() - 3).kind(), is(Step.Kind.CLOCK_MOVE));
                assertThat(all.subList(0, all.size() - 2).stream().map(Step::kind).toList(),
                        everyItem(not(anyOf(is(Step.Kind.KEY_LOSS), is(Step.Kind.EVICTION)))));
                for (Step s : last) {
                    assertThat(s.index(), is(all.indexOf(s)));
                    assertThat(s.kind().fault(), is(true));
                    assertThat(s.instance(), is(-1));
                    assertThat(s.atMillis() >= 6_000 && s.atMillis() < 42_000, is(true));
                    assertThat(s.lengthMillis() >= 2_000 && s.lengthMillis() < 8_000, is(true));
                    variants.add(replicated + " " + s.variant());
                }
                Step loss = last.getFirst();
                assertThat(ChaosPlan.KEY_LOSSES.contains(loss.variant()), is(true));
                PlanShape.SkuShape sku = PlanShape.standard().skus().stream().filter(k -> k.skuId() == loss.sku())
                        .findFirst().orElseThrow();
                assertThat(loss.ref() >= 0 && loss.ref() < sku.buckets(), is(true));
                assertThat(ChaosPlan.EVICTIONS.contains(last.getLast().variant()), is(true));
            }
        }
        // every variant comes up on both topologies over seeds 1-30
        List<String> expected = new java.util.ArrayList<>();
        for (Topology replicated : List.of(Topology.SENTINEL, Topology.CLUSTER)) {
            java.util.stream.Stream.concat(ChaosPlan.KEY_LOSSES.stream(), ChaosPlan.EVICTIONS.stream())
                    .forEach(v -> expected.add(replicated + " " + v));
        }
        assertThat(variants, containsInAnyOrder(expected.toArray()));
    }

    @Test
    void clockMovesAreDrawnLastOfAllOnEveryTopologyOneAMinuteForwardOrBackBySecondsOrMinutes() {
        java.util.Set<String> directions = new java.util.HashSet<>();
        boolean seconds = false;
        boolean minutes = false;
        for (Topology topology : Topology.values()) {
            for (long seed = 1; seed <= 30; seed++) {
                List<Step> all = beforeLastFaults(draw(seed, topology));
                List<Step> before = beforeClockMoves(all);
                List<Step> moves = all.subList(before.size(), all.size());
                assertThat(moves.size(), is(1));
                assertThat(before.stream().map(Step::kind).toList(), everyItem(not(is(Step.Kind.CLOCK_MOVE))));
                // every earlier step is what the seed drew before clock moves existed: the last is a forged payment
                assertThat(before.getLast().kind(), is(Step.Kind.HOSTILE_PAY));
                Step move = moves.getFirst();
                assertThat(move.kind().fault(), is(true));
                assertThat(move.instance() >= 0 && move.instance() < 2, is(true));
                assertThat(move.atMillis() >= 6_000 && move.atMillis() < 42_000, is(true));
                assertThat(move.lengthMillis() >= 3_000 && move.lengthMillis() < 15_000, is(true));
                assertThat(move.variant().matches("[+-]\\d+"), is(true));
                long offset = Math.abs(Long.parseLong(move.variant().replace("+", "")));
                assertThat(offset >= 2 && offset <= 300, is(true));
                directions.add(move.variant().substring(0, 1));
                seconds |= offset < 60;
                minutes |= offset >= 60;
            }
        }
        assertThat(directions, containsInAnyOrder("+", "-"));
        assertThat(seconds && minutes, is(true));
        // two minutes: two moves
        assertThat(new ChaosPlan(new SplittableRandom(42), PlanShape.standard()).draw(120_000, 2).stream()
                .filter(s -> s.kind() == Step.Kind.CLOCK_MOVE).count(), is(2L));
    }
}
