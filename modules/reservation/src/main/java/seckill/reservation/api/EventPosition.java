package seckill.reservation.api;

/**
 * Where a reservation event sits: the stream it was recorded in and its entry id. Opaque to other
 * modules; they only hand it back to acknowledge.
 */
public record EventPosition(String stream, String entryId) {
}
