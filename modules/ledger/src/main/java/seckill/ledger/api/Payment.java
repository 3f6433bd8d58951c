package seckill.ledger.api;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One payment the payment side reports for an order, already verified and checked against the price
 * by settlement: the ledger records it in the same transaction as the order's status change.
 * {@code amount} has scale 2 and fits the ledger's DECIMAL(14, 2); {@code paidAt} is as the payment
 * side reports it and decides nothing (the ledger's own clock judges the deadline).
 */
public record Payment(String orderNo, String paymentId, BigDecimal amount, String currency, Instant paidAt) {
}
