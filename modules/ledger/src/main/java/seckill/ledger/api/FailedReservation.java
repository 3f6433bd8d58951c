package seckill.ledger.api;

/** A reservation the ledger recorded as never able to become an order, and why. */
public record FailedReservation(String reservationId, long skuId, int quantity, String reason) {
}
