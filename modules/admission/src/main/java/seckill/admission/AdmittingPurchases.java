package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;

/**
 * Judges purchase attempts in the order that costs least first: the halt switch, the activity's
 * window, then the sold-out flag. None of these checks touches Redis.
 */
@ApplicationScoped
class AdmittingPurchases implements Admission {

    private static final Logger LOG = Logger.getLogger(AdmittingPurchases.class.getName());

    @Inject
    Clock clock;

    @Inject
    SoldOutBroadcast broadcast;

    private final AtomicReference<String> haltReason = new AtomicReference<>();

    @Override
    public AdmissionDecision admit(PurchaseAttempt attempt) {
        String halted = haltReason.get();
        if (halted != null) {
            return new AdmissionDecision.Halted(halted, 2);
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
        return new AdmissionDecision.Admitted();
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
