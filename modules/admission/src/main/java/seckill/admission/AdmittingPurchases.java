package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;

/**
 * Judges purchase attempts in the order that costs least first: the activity's window, then the
 * local sold-out flag. None of these checks touches Redis.
 */
@ApplicationScoped
class AdmittingPurchases implements Admission {

    @Inject
    Clock clock;

    private final SoldOutFlags soldOut = new SoldOutFlags();

    @Override
    public AdmissionDecision admit(PurchaseAttempt attempt) {
        Instant now = clock.instant();
        if (now.isBefore(attempt.startsAt())) {
            long seconds = Math.max(1, Duration.between(now, attempt.startsAt()).toSeconds());
            return new AdmissionDecision.NotStarted(seconds);
        }
        if (!now.isBefore(attempt.endsAt())) {
            return new AdmissionDecision.Ended();
        }
        if (soldOut.isSet(attempt.activityId(), attempt.skuId())) {
            return new AdmissionDecision.SoldOut();
        }
        return new AdmissionDecision.Admitted();
    }

    @Override
    public void soldOut(long activityId, long skuId) {
        soldOut.set(activityId, skuId);
    }

    @Override
    public void restocked(long activityId, long skuId) {
        soldOut.clear(activityId, skuId);
    }

    @Override
    public boolean isFlaggedSoldOut(long activityId, long skuId) {
        return soldOut.isSet(activityId, skuId);
    }
}
