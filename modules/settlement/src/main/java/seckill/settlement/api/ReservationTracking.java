package seckill.settlement.api;

import java.util.List;
import java.util.Optional;

/**
 * The settlement module's door for buyers asking about their reservation. Answers only the buyer
 * who holds it; anyone else learns nothing, not even that it exists.
 */
public interface ReservationTracking {

    Optional<ReservationStatus> track(String reservationId, long userId);

    /**
     * Every reservation the buyer holds in an activity, read from the primary stores (the ledger and
     * Redis), ordered by SKU; empty when none, or when there is no such activity.
     */
    List<HeldReservation> heldBy(long activityId, long userId);
}
