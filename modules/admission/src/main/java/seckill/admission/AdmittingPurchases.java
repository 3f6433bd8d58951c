package seckill.admission;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Metadata;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.rules.CheapChecks;
import seckill.redis.RedisFailures;
import seckill.redis.World;

/**
 * Judges purchase attempts in the order that costs least first: halt, blocklists, the activity's
 * window, the sold-out flag, the purchase token and the global rate (from this instance's lease)
 * need no Redis call. The buyer's own rate limit is not judged here: the attempt is admitted with
 * the window to apply, and the reservation script judges it in the same call that dedupes and takes
 * stock ({@link #throttledAtReservation} learns the verdict). So an admitted purchase costs one
 * Redis call, and a refused one none.
 */
@HotPathSingleton
class AdmittingPurchases implements Admission {
    private static final Metadata SALES_HALTED = Metadata.builder().withName("seckill.sales.halted")
            .withDescription("1 while this instance does not sell (halted for Redis doubt, missing replicas, a foreign "
                    + "ledger, or by an operator or the seckill.admission.halt switch), else 0; one series per world "
                    + "(world=\"rehearsal\": the rehearsals' own halt, docs/rehearsal.md). GET "
                    + "/api/v1/admin/sales says why.").build();
    private static final Metadata SALES_HALTS = Metadata.builder().withName("seckill.sales.halts")
            .withDescription("Times this instance went from selling to halted; with seckill_sales_resumes_total a "
                    + "flapping sale shows as a rate.").build();
    private static final Metadata SALES_RESUMES = Metadata.builder().withName("seckill.sales.resumes")
            .withDescription("Times this instance went from halted back to selling (by itself after a clean "
                    + "reconciliation, or by an operator).").build();
    private static final Metadata ADMISSION = Metadata.builder().withName("seckill.admission")
            .withDescription("Purchase attempts judged by admission, by outcome: admitted (passed on to the "
                    + "reservation script), throttled_buyer, throttled_global, sold_out, token_invalid, "
                    + "blocked, halted, in_doubt, not_started, ended.").build();
    /** Every outcome {@link #outcome} gives, registered at start so each series exists (at 0) before its first count. */
    private static final List<String> ADMISSION_OUTCOMES = List.of("admitted", "throttled_buyer", "throttled_global",
            "sold_out", "token_invalid", "blocked", "halted", "in_doubt", "not_started", "ended");

    private static final Logger LOG = Logger.getLogger(AdmittingPurchases.class.getName());

    private final Clock clock;
    private final SoldOutBroadcast broadcast;
    final AdmissionSwitches switches;
    private final IssuingPurchaseTokens tokens;
    private final MetricRegistry metrics;
    private final GlobalLeases leases;
    private final CheapChecks checks;
    private final TokenSpend spends;
    private final RecentlyThrottled recentlyThrottled = new RecentlyThrottled();
    /** By world, then outcome: a rehearsal's attempts carry {@code world="rehearsal"} (docs/rehearsal.md). */
    private final java.util.Map<String, org.eclipse.microprofile.metrics.Counter> outcomes =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<String, org.eclipse.microprofile.metrics.Counter> rehearsalOutcomes =
            new java.util.concurrent.ConcurrentHashMap<>();

    @Inject
    AdmittingPurchases(Clock clock, SoldOutBroadcast broadcast, AdmissionSwitches switches, IssuingPurchaseTokens tokens,
                       UnifiedJedis redis, MetricRegistry metrics, AdmissionSettings settings) {
        this(clock, broadcast, switches, tokens, redis, metrics, settings.rateLimitPartitions(), settings.acksInForce());
    }

    AdmittingPurchases(Clock clock, SoldOutBroadcast broadcast, AdmissionSwitches switches, IssuingPurchaseTokens tokens,
                       UnifiedJedis redis, MetricRegistry metrics, int partitions) {
        this(clock, broadcast, switches, tokens, redis, metrics, partitions, () -> seckill.redis.ReplicaAcks.NONE);
    }

    AdmittingPurchases(Clock clock, SoldOutBroadcast broadcast, AdmissionSwitches switches, IssuingPurchaseTokens tokens,
                       UnifiedJedis redis, MetricRegistry metrics, int partitions,
                       java.util.function.Supplier<seckill.redis.ReplicaAcks> acksInForce) {
        this.clock = clock;
        this.broadcast = broadcast;
        this.switches = switches;
        this.tokens = tokens;
        this.metrics = metrics;
        leases = new GlobalLeases(redis, clock, partitions,
                Long.toString(new java.security.SecureRandom().nextLong() >>> 1, 36));
        spends = new TokenSpend(redis, acksInForce);
        checks = new CheapChecks((activityId, skuId) -> broadcast.flags().isSet(activityId, skuId), this::tokenRefusal);
        if (metrics != null) {
            // the real series exist (at 0) from the start; a rehearsal's appear when a rehearsal moves them
            haltFigures(World.REAL);
            ADMISSION_OUTCOMES.forEach(o -> counter(World.REAL, o));
        }
    }

    /** One halt state per world (docs/rehearsal.md): a rehearsal's doubt halts rehearsals only. */
    private final java.util.Map<World, AtomicReference<HaltReason>> haltReasons = new java.util.EnumMap<>(java.util.Map.of(
            World.REAL, new AtomicReference<>(), World.REHEARSAL, new AtomicReference<>()));
    /** The halted gauge and the transitions' counters of each world, registered with the world's first use. */
    private final java.util.Map<World, HaltFigures> haltFigures = new java.util.concurrent.ConcurrentHashMap<>();

    private record HaltFigures(org.eclipse.microprofile.metrics.Counter halts,
                               org.eclipse.microprofile.metrics.Counter resumes) {
    }

    private HaltFigures haltFigures(World world) {
        if (metrics == null) {
            return null;
        }
        return haltFigures.computeIfAbsent(world, w -> {
            Tag label = new Tag(World.LABEL, w.label());
            AtomicReference<HaltReason> reason = haltReasons.get(w);
            // 1 while this instance does not sell the world's activities, whatever the reason: the alert an
            // operator pages on (the real world's)
            metrics.gauge(SALES_HALTED, () -> reason.get() != null || this.switches.halt() ? 1 : 0, label);
            // transitions, so that a sale flapping between halted and open shows as a rate, not as a gauge that looks steady
            return new HaltFigures(metrics.counter(SALES_HALTS, label), metrics.counter(SALES_RESUMES, label));
        });
    }

    private AtomicReference<HaltReason> haltOf(long activityId) {
        return haltReasons.get(World.of(activityId));
    }

    @Override
    public AdmissionDecision admit(PurchaseAttempt attempt) {
        AdmissionDecision decision = judge(attempt);
        count(World.of(attempt.activityId()), decision);
        return decision;
    }

    @Override
    public AdmissionDecision admitToLine(PurchaseAttempt attempt) {
        CheapChecks.Switches inForce = new CheapChecks.Switches(switches.halt(), switches.blockedUsers(),
                switches.blockedIps(), switches.tokenRequired());
        return checks.lineRefusal(attempt, Optional.ofNullable(haltOf(attempt.activityId()).get()), inForce, clock.instant())
                .orElseGet(() -> new AdmissionDecision.Admitted(switches.buyerRate(), switches.buyerWindowMillis()));
    }

    private void count(World world, AdmissionDecision decision) {
        if (metrics != null) {
            counter(world, outcome(decision)).inc();
        }
    }

    private org.eclipse.microprofile.metrics.Counter counter(World world, String outcome) {
        return (world == World.REAL ? outcomes : rehearsalOutcomes).computeIfAbsent(outcome,
                o -> metrics.counter(ADMISSION, new Tag("outcome", o), new Tag(World.LABEL, world.label())));
    }

    AdmissionDecision judge(PurchaseAttempt attempt) {
        Instant now = clock.instant();
        CheapChecks.Switches inForce = new CheapChecks.Switches(switches.halt(), switches.blockedUsers(),
                switches.blockedIps(), switches.tokenRequired());
        Optional<AdmissionDecision> refused = checks.refusal(attempt, Optional.ofNullable(haltOf(attempt.activityId()).get()),
                inForce, now);
        if (refused.isPresent()) {
            return refused.get();
        }
        long stillThrottled = recentlyThrottled.remaining(attempt.activityId(), attempt.skuId(), attempt.userId(),
                clock.millis());
        if (stillThrottled > 0) {
            long retry = Math.max(1, (stillThrottled + 999) / 1000);
            return new AdmissionDecision.Throttled("BUYER", retry, switches.buyerRate(), 0, retry);
        }
        long globalRate = switches.globalRate();
        if (globalRate > 0) {
            try {
                // decided in memory from this instance's lease: the excess costs no Redis call
                if (!leases.admit(attempt.activityId(), globalRate)) {
                    long retry = Math.max(1, (leases.millisToNextSecond() + 999) / 1000);
                    return new AdmissionDecision.Throttled("GLOBAL", retry, switches.buyerRate(),
                            switches.buyerRate(), retry);  // the buyer's own window was not touched
                }
            } catch (JedisException e) {
                if (RedisFailures.poolExhausted(e)) {
                    // this instance is saturated, Redis is fine: queue the buyer like the global limit does
                    return new AdmissionDecision.Throttled("GLOBAL", 1, switches.buyerRate(), 0, 1);
                }
                // Redis is the arbiter of the reservation too; the caller decides what doubt means for sales
                LOG.log(java.util.logging.Level.WARNING, "global rate lease unavailable", e);
                return new AdmissionDecision.InDoubt();
            }
        }
        Optional<AdmissionDecision> spent = spendToken(attempt, inForce.tokenRequired());
        if (spent.isPresent()) {
            if (globalRate > 0) {
                leases.giveBack(attempt.activityId());  // the attempt took a token of the global rate, and goes nowhere
            }
            return spent.get();
        }
        return new AdmissionDecision.Admitted(switches.buyerRate(), switches.buyerWindowMillis());
    }

    /**
     * One token, one SKU (issue #36): the token, verified above, is spent on this purchase unless it went to
     * another SKU. Last of the checks, so attempts refused from memory cost no Redis call; this one costs one
     * (only while tokens are required). Redis not answering it is doubt, as for the rate lease.
     */
    private Optional<AdmissionDecision> spendToken(PurchaseAttempt attempt, boolean tokenChecked) {
        if (!tokenChecked || attempt.purchaseToken().isEmpty()) {
            return Optional.empty();
        }
        TokenSigner.Claims claims = TokenSigner.claims(attempt.purchaseToken().get());
        try {
            if (spends.spend(attempt.activityId(), claims.tokenId(), attempt.skuId(), attempt.requestId(),
                    claims.expiresEpochSecond() * 1000)) {
                return Optional.empty();
            }
            return Optional.of(new AdmissionDecision.TokenInvalid("USED"));
        } catch (seckill.redis.ReplicaAcks.Missing e) {
            // the spend is on the master only: a failover could lose it and let the token buy another SKU
            LOG.warning(() -> "purchase token spend not acknowledged by enough replicas: " + e.getMessage());
            return Optional.of(new AdmissionDecision.InDoubt());
        } catch (JedisException e) {
            if (RedisFailures.poolExhausted(e)) {
                return Optional.of(new AdmissionDecision.Throttled("GLOBAL", 1, switches.buyerRate(), 0, 1));
            }
            LOG.log(java.util.logging.Level.WARNING, "purchase token spend unanswered", e);
            return Optional.of(new AdmissionDecision.InDoubt());
        }
    }

    @Override
    public AdmissionDecision throttledAtReservation(PurchaseAttempt attempt, long attempts, long retryAfterMillis) {
        if (switches.globalRate() > 0) {
            // the attempt took a token of the global rate, yet bought nothing: the budget is for buyers who can
            leases.giveBack(attempt.activityId());
        }
        recentlyThrottled.remember(attempt.activityId(), attempt.skuId(), attempt.userId(),
                clock.millis() + retryAfterMillis);
        long retry = Math.max(1, (retryAfterMillis + 999) / 1000);
        AdmissionDecision decision = new AdmissionDecision.Throttled("BUYER", retry, switches.buyerRate(), 0, retry);
        count(World.of(attempt.activityId()), decision);
        return decision;
    }

    private Optional<String> tokenRefusal(Optional<String> token, long activityId, long userId, Instant now) {
        TokenSigner signer = tokens == null ? null : tokens.signer();
        if (signer == null) {
            return Optional.of("NOT_CONFIGURED");
        }
        if (token.isEmpty()) {
            return Optional.of("MISSING");
        }
        return Optional.ofNullable(signer.check(token.get(), activityId, userId, now)).map(Enum::name);
    }

    private static String outcome(AdmissionDecision decision) {
        return switch (decision) {
            case AdmissionDecision.Admitted a -> "admitted";
            case AdmissionDecision.Throttled t -> "throttled_" + t.limit().toLowerCase();
            case AdmissionDecision.SoldOut s -> "sold_out";
            case AdmissionDecision.TokenInvalid t -> "token_invalid";
            case AdmissionDecision.Blocked b -> "blocked";
            case AdmissionDecision.Halted h -> "halted";
            case AdmissionDecision.InDoubt d -> "in_doubt";
            case AdmissionDecision.NotStarted n -> "not_started";
            case AdmissionDecision.Ended e -> "ended";
        };
    }

    /** Operator threshold: the SKU counts as sold out once this few units remain (0: only when none). */
    @Override
    public void reservedLeaving(long activityId, long skuId, long remaining) {
        if (remaining <= switches.soldOutThreshold()) {
            broadcast.soldOut(activityId, skuId);
        }
    }

    @Override
    public void soldOut(long activityId, long skuId) {
        broadcast.soldOut(activityId, skuId);
    }

    @Override
    public void restocked(long activityId, long skuId) {
        broadcast.restocked(activityId, skuId);
    }

    @Override
    public boolean isFlaggedSoldOut(long activityId, long skuId) {
        return broadcast.flags().isSet(activityId, skuId);
    }

    @Override
    public void halt(World world, HaltReason reason) {
        if (haltReasons.get(world).compareAndSet(null, reason)) {
            LOG.warning(() -> worldWords(world) + "sales HALTED on this instance: " + reason.words());
            HaltFigures figures = haltFigures(world);
            if (figures != null) {
                figures.halts().inc();
            }
        }
    }

    @Override
    public boolean explainHalt(World world, HaltReason was, HaltReason now) {
        if (haltReasons.get(world).compareAndSet(was, now)) {
            LOG.warning(() -> worldWords(world) + "sales still halted on this instance, now because: " + now.words()
                    + " (was: " + was.words() + ")");
            return true;
        }
        return false;
    }

    @Override
    public void resume(World world) {
        HaltReason was = haltReasons.get(world).getAndSet(null);
        if (was != null) {
            LOG.info(() -> worldWords(world) + "sales resumed (were halted: " + was.words() + ")");
            HaltFigures figures = haltFigures(world);
            if (figures != null) {
                figures.resumes().inc();
            }
        }
    }

    @Override
    public Optional<HaltReason> haltedBecause(World world) {
        return Optional.ofNullable(haltReasons.get(world).get());
    }

    /** The real world's log lines read as before; a rehearsal's say whose they are. */
    private static String worldWords(World world) {
        return world == World.REAL ? "" : "rehearsal ";
    }
}
