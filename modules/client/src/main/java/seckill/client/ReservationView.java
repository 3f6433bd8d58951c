package seckill.client;

/**
 * Where a reservation stands: {@code status} QUEUED, ORDERED (with {@code orderNo}, the payment
 * deadline {@code expiresAt} and the order's own {@code orderStatus}) or FAILED (with {@code reason}).
 * In a buyer's list, {@code skuId} names the SKU and {@code quantity} the units once the ledger has
 * them. An order of a priced SKU has the unit {@code price} it was sold at and the {@code amountDue}
 * (price times quantity) its payment must be. Absent fields are null.
 */
public record ReservationView(String reservationId, String status, Long skuId, Integer quantity, String orderNo,
                              String expiresAt, String orderStatus, String reason, NewActivity.Price price,
                              NewActivity.Price amountDue) {
}
