package seckill.settlement.api;

import java.util.Optional;

/**
 * The settlement module's door for buyers asking about their reservation. Answers only the buyer
 * who holds it; anyone else learns nothing, not even that it exists.
 */
public interface ReservationTracking {

    Optional<ReservationStatus> track(String reservationId, long userId);
}
