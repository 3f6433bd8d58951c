package seckill.drill.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Draws a chaos run's whole schedule up front from a seeded source, so the same seed gives the same
 * steps whatever happens while they run: buyers' clicks (new, retried with the same requestId, a
 * requestId reused on another SKU), payments (on time, late, twice, never), hostile requests,
 * operator halts and resumes, and faults that overlap (each kind the topology allows at least once,
 * {@link Topology#faults()}). A single-Redis schedule draws exactly what it drew before topologies
 * existed, so a seed's earlier results still name the same schedule.
 */
public final class ChaosPlan {

    private static final List<String> HOSTILE = List.of("bad-json", "huge-numbers", "no-token", "forged-token",
            "forged-user-header", "negative-quantity", "unknown-activity");

    /** What a {@code KEY_LOSS} deletes. */
    static final List<String> KEY_LOSSES = List.of("quiet-bucket", "stream-registry", "node-leases");
    /** The policy an {@code EVICTION} sets: tolerated ({@code noeviction}, writes refused) or one the service must halt on. */
    static final List<String> EVICTIONS = List.of("noeviction", "allkeys-random");

    /** Hot switches an operator flips: key, flipped value, default (what the flip goes back to). */
    static final List<String[]> SWITCHES = List.of(
            new String[] {"seckill.admission.halt", "true", "false"},
            new String[] {"seckill.admission.sold-out-threshold", "3", "0"},
            new String[] {"seckill.admission.global-rate", "5", "0"},
            new String[] {"seckill.ordering.max-orders-per-second", "2", "0"});

    /**
     * How a hostile payment callback is forged: a signature with another key, none, a true signature
     * over another body (a genuine callback replayed with its amount, or its order number, changed), a
     * true signature over a wrong amount or currency, a true signature for an order number that does
     * not exist.
     */
    public static final List<String> FORGERIES = List.of("bad-signature", "no-signature", "replayed-amount",
            "replayed-order", "wrong-amount", "wrong-currency", "unknown-order");

    private final RandomGenerator random;
    private final PlanShape shape;
    private final Topology topology;

    ChaosPlan(RandomGenerator random, PlanShape shape) {
        this(random, shape, Topology.SINGLE);
    }

    /** A plan whose faults are the ones that make sense on {@code topology} ({@link Topology#faults()}). */
    ChaosPlan(RandomGenerator random, PlanShape shape, Topology topology) {
        this.random = random;
        this.shape = shape;
        this.topology = topology;
    }

    List<Step> draw(long durationMillis, int instances) {
        List<Step> steps = new ArrayList<>();
        long buyWindow = durationMillis * 85 / 100;
        int clicks = (int) (shape.buyerOpsPerSecond() * durationMillis / 1000);
        long[] times = new long[clicks];
        for (int i = 0; i < clicks; i++) {
            times[i] = random.nextLong(buyWindow);
        }
        java.util.Arrays.sort(times);
        List<Step> purchases = new ArrayList<>();
        for (int i = 0; i < clicks; i++) {
            long at = times[i];
            int instance = random.nextInt(instances);
            double r = random.nextDouble();
            if (r < shape.hostileShare()) {
                steps.add(step(steps, at, Step.Kind.HOSTILE, instance, 0, 0, null, -1, 0,
                        HOSTILE.get(random.nextInt(HOSTILE.size()))));
            } else if (r < shape.hostileShare() + shape.retryShare() && !purchases.isEmpty()) {
                Step first = recent(purchases);
                steps.add(step(steps, at, Step.Kind.RETRY, instance, first.buyer(), first.sku(), first.requestId(),
                        first.index(), 0, "retry"));
            } else if (r < shape.hostileShare() + shape.retryShare() + shape.reuseShare() && !purchases.isEmpty()) {
                Step first = recent(purchases);
                long otherSku = shape.skus().get(random.nextInt(shape.skus().size())).skuId();
                steps.add(step(steps, at, Step.Kind.REUSED_ID, instance, first.buyer(), otherSku, first.requestId(),
                        first.index(), 0, "reused"));
            } else {
                long buyer = 1 + random.nextInt(shape.buyers());
                long sku = shape.skus().get(random.nextInt(shape.skus().size())).skuId();
                Step purchase = step(steps, at, Step.Kind.PURCHASE, instance, buyer, sku, "c" + steps.size(), -1, 0,
                        "new");
                steps.add(purchase);
                purchases.add(purchase);
                pay(steps, purchase, instances, durationMillis);
            }
        }
        List<Step.Kind> kinds = topology.faults();
        long faults = Math.max(kinds.size(), Math.round(shape.faultsPerMinute() * durationMillis / 60_000.0));
        for (int f = 0; f < faults; f++) {
            Step.Kind kind = f < kinds.size() ? kinds.get(f) : kinds.get(random.nextInt(kinds.size()));
            long at = durationMillis / 10 + random.nextLong(durationMillis * 6 / 10);
            long length = kind == Step.Kind.REDIS_PAUSE ? 1_000 + random.nextLong(3_000) : 2_000 + random.nextLong(6_000);
            switch (kind) {
                case MASTER_KILL, REPLICA_FREEZE -> steps.add(step(steps, at, kind, -1,
                        kind == Step.Kind.REPLICA_FREEZE ? random.nextInt(2) : 0, 0, null,
                        random.nextInt(topology.shards()), length, kind.name().toLowerCase()));
                default -> steps.add(step(steps, at, kind, kind == Step.Kind.REDIS_PAUSE ? -1 : random.nextInt(instances),
                        0, 0, null, -1, length, kind.name().toLowerCase()));
            }
        }
        long halts = Math.round(shape.haltsPerMinute() * durationMillis / 60_000.0);
        for (int h = 0; h < halts; h++) {
            long at = durationMillis / 10 + random.nextLong(durationMillis * 6 / 10);
            int instance = random.nextInt(instances);
            Step halt = step(steps, at, Step.Kind.HALT, instance, 0, 0, null, -1, 0, "operator");
            steps.add(halt);
            steps.add(step(steps, at + 3_000 + random.nextLong(5_000), Step.Kind.RESUME, instance, 0, 0, null,
                    halt.index(), 0, "operator"));
        }
        // drawn last: the kinds added later must not move any earlier step of a seed
        redisDataFaults(steps, topology.laterFaults(), durationMillis);
        // hot switches flipped by an operator, drawn after everything else for the same reason
        long flips = Math.round(shape.haltsPerMinute() * durationMillis / 60_000.0);
        for (int f = 0; f < flips; f++) {
            long at = durationMillis / 10 + random.nextLong(durationMillis * 6 / 10);
            int instance = random.nextInt(instances);
            String[] flip = SWITCHES.get(random.nextInt(SWITCHES.size()));
            Step on = step(steps, at, Step.Kind.SWITCH_FLIP, instance, 0, 0, null, -1, 0, flip[0] + "=" + flip[1]);
            steps.add(on);
            steps.add(step(steps, at + 3_000 + random.nextLong(5_000), Step.Kind.SWITCH_FLIP, instance, 0, 0, null,
                    on.index(), 0, flip[0] + "=" + flip[2]));
        }
        // hostile payment callbacks, drawn after everything else for the same reason: at least one of each
        // forgery, as many a minute as there are forgeries
        long forged = Math.max(FORGERIES.size(), Math.round(FORGERIES.size() * durationMillis / 60_000.0));
        for (int f = 0; f < forged; f++) {
            String variant = f < FORGERIES.size() ? FORGERIES.get(f) : FORGERIES.get(random.nextInt(FORGERIES.size()));
            long at = durationMillis / 10 + random.nextLong(durationMillis * 7 / 10);
            int instance = random.nextInt(instances);
            List<Step> before = purchases.stream().filter(p -> p.atMillis() < at).toList();
            Step target = before.isEmpty() ? null : before.get(random.nextInt(before.size()));
            steps.add(step(steps, at, Step.Kind.HOSTILE_PAY, instance, target == null ? 0 : target.buyer(),
                    target == null ? 0 : target.sku(), null, target == null ? -1 : target.index(), 0, variant));
        }
        // moved clocks, drawn after everything else for the same reason (every topology): one a minute, at least
        // one; one instance's wall clock forward or back by seconds (2-59) or minutes (1-5), for 3-15 s
        long moves = Math.max(1, Math.round(durationMillis / 60_000.0));
        for (int m = 0; m < moves; m++) {
            long at = durationMillis / 10 + random.nextLong(durationMillis * 6 / 10);
            int instance = random.nextInt(instances);
            long seconds = random.nextBoolean() ? 2 + random.nextInt(58) : 60 + random.nextInt(241);
            String offset = (random.nextBoolean() ? "+" : "-") + seconds;
            long length = 3_000 + random.nextLong(12_000);
            steps.add(step(steps, at, Step.Kind.CLOCK_MOVE, instance, 0, 0, null, -1, length, offset));
        }
        // keys lost and eviction on Sentinel and the cluster, added after the moved clocks: last of all
        redisDataFaults(steps, topology.lastFaults(), durationMillis);
        return steps;
    }

    /** One {@code KEY_LOSS} (variant, SKU and bucket drawn) and one {@code EVICTION} (policy drawn), in that order. */
    private void redisDataFaults(List<Step> steps, List<Step.Kind> kinds, long durationMillis) {
        for (Step.Kind kind : kinds) {
            long at = durationMillis / 10 + random.nextLong(durationMillis * 6 / 10);
            long length = 2_000 + random.nextLong(6_000);
            switch (kind) {
                case KEY_LOSS -> {
                    String variant = KEY_LOSSES.get(random.nextInt(KEY_LOSSES.size()));
                    PlanShape.SkuShape sku = shape.skus().get(random.nextInt(shape.skus().size()));
                    int bucket = random.nextInt(sku.buckets());
                    steps.add(step(steps, at, kind, -1, 0, sku.skuId(), null, bucket, length, variant));
                }
                case EVICTION -> steps.add(step(steps, at, kind, -1, 0, 0, null, -1, length,
                        EVICTIONS.get(random.nextInt(EVICTIONS.size()))));
                default -> throw new IllegalStateException("not a later fault: " + kind);
            }
        }
    }

    /** The steps in the order they are due (ties in the order drawn). */
    static List<Step> due(List<Step> steps) {
        return steps.stream().sorted(Comparator.comparingLong(Step::atMillis).thenComparingInt(Step::index)).toList();
    }

    private void pay(List<Step> steps, Step purchase, int instances, long durationMillis) {
        if (random.nextDouble() >= shape.payShare()) {
            return;
        }
        double r = random.nextDouble();
        long window = shape.paymentWindowSeconds() * 1000;
        if (r < shape.lateShare()) {
            add(steps, purchase.atMillis() + window + 2_000 + random.nextLong(4_000), purchase, instances, "late",
                    durationMillis);
        } else {
            long at = purchase.atMillis() + 2_000 + random.nextLong(4_000);
            add(steps, at, purchase, instances, "on-time", durationMillis);
            if (r < shape.lateShare() + shape.twiceShare()) {
                add(steps, at + random.nextLong(2_000), purchase, instances, "twice", durationMillis);
            }
        }
    }

    private void add(List<Step> steps, long at, Step purchase, int instances, String variant, long durationMillis) {
        if (at < durationMillis) {
            steps.add(step(steps, at, Step.Kind.PAY, random.nextInt(instances), purchase.buyer(), purchase.sku(), null,
                    purchase.index(), 0, variant));
        }
    }

    /** One of the last few purchases: a retry follows its click closely. */
    private Step recent(List<Step> purchases) {
        int window = Math.min(20, purchases.size());
        return purchases.get(purchases.size() - 1 - random.nextInt(window));
    }

    private static Step step(List<Step> steps, long at, Step.Kind kind, int instance, long buyer, long sku,
                             String requestId, int ref, long length, String variant) {
        return new Step(steps.size(), at, kind, instance, buyer, sku, requestId, ref, length, variant);
    }
}
