package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;
import seckill.reservation.api.Coalescing;
import seckill.reservation.api.ReservationUnavailable;

/**
 * Judges purchase attempts in the order that costs least first: halt, blocklists, the activity's
 * window, the sold-out flag and the purchase token need no Redis call; only an attempt that passed
 * them all meets the shared rate limits (one script call).
 */
@ApplicationScoped
class AdmittingPurchases implements Admission {

    private static final Logger LOG = Logger.getLogger(AdmittingPurchases.class.getName());

    @Inject
    Clock clock;

    @Inject
    SoldOutBroadcast broadcast;

    @Inject
    AdmissionSwitches switches;

    @Inject
    IssuingPurchaseTokens tokens;

    @Inject
    UnifiedJedis redis;

    @Inject
    MetricRegistry metrics;

    @Inject
    @ConfigProperty(name = "seckill.admission.rate-limit.partitions", defaultValue = "1")
    int partitions = 1;

    // admission's coalescing follows the reservation's switch unless set apart
    @Inject
    @ConfigProperty(name = "seckill.admission.coalescing.enabled")
    Optional<Boolean> coalescingOwn = Optional.empty();

    @Inject
    @ConfigProperty(name = "seckill.reservation.coalescing.enabled", defaultValue = "true")
    boolean coalescingShared;

    @Inject
    @ConfigProperty(name = "seckill.reservation.coalescing.max-batch", defaultValue = "32")
    int coalescingBatch = 32;

    @Inject
    @ConfigProperty(name = "seckill.reservation.coalescing.max-wait-micros", defaultValue = "0")
    long coalescingWaitMicros;

    @Inject
    @ConfigProperty(name = "seckill.reservation.coalescing.calls-per-lane", defaultValue = "1")
    int coalescingCalls = 1;

    @Inject
    @ConfigProperty(name = "seckill.redis.timeout-millis", defaultValue = "2000")
    long timeoutMillis = 2000;

    private RateLimits limits;
    private Coalescing<RateLimits.Check, RateLimits.Verdict> coalescer;
    private boolean coalescing;
    private final RecentlyThrottled recentlyThrottled = new RecentlyThrottled();
    private final java.util.Map<String, org.eclipse.microprofile.metrics.Counter> outcomes =
            new java.util.concurrent.ConcurrentHashMap<>();

    @PostConstruct
    void init() {
        limits = new RateLimits(redis, clock, partitions);
        coalescing = coalescingOwn.orElse(coalescingShared);
        coalescer = new Coalescing<>(limits::checkAll, coalescingBatch, coalescingWaitMicros, coalescingCalls);
        if (metrics != null) {
            coalescer.countIn(metrics, "admission");
        }
    }

    private final AtomicReference<String> haltReason = new AtomicReference<>();

    @Override
    public AdmissionDecision admit(PurchaseAttempt attempt) {
        AdmissionDecision decision = judge(attempt);
        outcomes.computeIfAbsent(outcome(decision), o -> metrics.counter("seckill.admission", new Tag("outcome", o))).inc();
        return decision;
    }

    AdmissionDecision judge(PurchaseAttempt attempt) {
        String halted = haltReason.get();
        if (halted != null) {
            return new AdmissionDecision.Halted(halted, 2);
        }
        if (switches.halt()) {
            return new AdmissionDecision.Halted("operator switch", 5);
        }
        if (switches.blockedUsers().contains(Long.toString(attempt.userId()))) {
            return new AdmissionDecision.Blocked("buyer");
        }
        if (!attempt.clientIp().isEmpty() && switches.blockedIps().contains(attempt.clientIp())) {
            return new AdmissionDecision.Blocked("client address");
        }
        Instant now = clock.instant();
        if (now.isBefore(attempt.startsAt())) {
            long seconds = Math.max(1, Duration.between(now, attempt.startsAt()).toSeconds());
            return new AdmissionDecision.NotStarted(seconds);
        }
        if (!now.isBefore(attempt.endsAt())) {
            return new AdmissionDecision.Ended();
        }
        if (broadcast.flags().isSet(attempt.activityId(), attempt.skuId())) {
            return new AdmissionDecision.SoldOut();
        }
        if (switches.tokenRequired()) {
            TokenSigner signer = tokens.signer();
            if (signer == null) {
                return new AdmissionDecision.TokenInvalid("NOT_CONFIGURED");
            }
            if (attempt.purchaseToken().isEmpty()) {
                return new AdmissionDecision.TokenInvalid("MISSING");
            }
            TokenSigner.Refusal refusal = signer.check(attempt.purchaseToken().get(), attempt.activityId(),
                    attempt.userId(), now);
            if (refusal != null) {
                return new AdmissionDecision.TokenInvalid(refusal.name());
            }
        }
        long stillThrottled = recentlyThrottled.remaining(attempt.activityId(), attempt.userId(), clock.millis());
        if (stillThrottled > 0) {
            long retry = Math.max(1, (stillThrottled + 999) / 1000);
            return new AdmissionDecision.Throttled("BUYER", retry, switches.buyerRate(), 0, retry);
        }
        RateLimits.Verdict verdict;
        try {
            RateLimits.Check check = new RateLimits.Check(attempt.activityId(), attempt.userId(), switches.buyerRate(),
                    switches.buyerWindowMillis(), switches.globalRate());
            String lane = limits.lane(attempt.activityId(), attempt.userId());
            verdict = coalescing ? coalescer.submit(lane, check, timeoutMillis)
                    : limits.checkAll(lane, List.of(check)).getFirst();
        } catch (Coalescing.NotSent e) {
            // queued behind this instance's own calls for too long: Redis never saw it
            return new AdmissionDecision.Throttled("GLOBAL", 1, switches.buyerRate(), 0, 1);
        } catch (JedisException e) {
            if (ReservationUnavailable.poolExhausted(e)) {
                // this instance is saturated, Redis is fine: queue the buyer like the global limit does
                return new AdmissionDecision.Throttled("GLOBAL", 1, switches.buyerRate(), 0, 1);
            }
            // Redis is the arbiter of the reservation too: in doubt, stop issuing here as well
            // the client's error text goes to the log; clients and probes see a stable reason
            LOG.log(java.util.logging.Level.WARNING, "rate limits unavailable; halting sales on this instance", e);
            halt("redis: rate limits unavailable");
            return new AdmissionDecision.Halted(haltReason.get(), 2);
        }
        if (!verdict.admitted()) {
            if ("BUYER".equals(verdict.limit())) {
                recentlyThrottled.remember(attempt.activityId(), attempt.userId(),
                        clock.millis() + verdict.retryAfterMillis());
            }
            long retry = Math.max(1, (verdict.retryAfterMillis() + 999) / 1000);
            long remaining = "BUYER".equals(verdict.limit()) ? 0 : Math.max(0, verdict.buyerLimit() - 1);
            return new AdmissionDecision.Throttled(verdict.limit(), retry, verdict.buyerLimit(), remaining, retry);
        }
        return new AdmissionDecision.Admitted();
    }

    private static String outcome(AdmissionDecision decision) {
        return switch (decision) {
            case AdmissionDecision.Admitted a -> "admitted";
            case AdmissionDecision.Throttled t -> "throttled_" + t.limit().toLowerCase();
            case AdmissionDecision.SoldOut s -> "sold_out";
            case AdmissionDecision.TokenInvalid t -> "token_invalid";
            case AdmissionDecision.Blocked b -> "blocked";
            case AdmissionDecision.Halted h -> "halted";
            case AdmissionDecision.NotStarted n -> "not_started";
            case AdmissionDecision.Ended e -> "ended";
        };
    }

    /** Operator threshold: the SKU counts as sold out once this few units remain (0: only when none). */
    @Override
    public long soldOutThreshold() {
        return switches.soldOutThreshold();
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
    public void halt(String reason) {
        if (haltReason.compareAndSet(null, reason)) {
            LOG.warning(() -> "sales HALTED on this instance: " + reason);
        }
    }

    @Override
    public void resume() {
        String was = haltReason.getAndSet(null);
        if (was != null) {
            LOG.info(() -> "sales resumed (were halted: " + was + ")");
        }
    }

    @Override
    public Optional<String> haltedBecause() {
        return Optional.ofNullable(haltReason.get());
    }
}
