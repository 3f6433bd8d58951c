package seckill.client;

/** A payment callback the service accepted: the order is PAID by {@code paymentId}. */
public record PaymentReceipt(String orderNo, String paymentId, String status) {
}
