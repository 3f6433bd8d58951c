package seckill.ledger.api;

import java.time.Instant;

/**
 * The ledger's door for a payment (settlement's {@code ConfirmingPayments}): the one compare-and-set
 * that moves an order from PENDING to PAID.
 */
public interface OrderPayments {

    /**
     * Records {@code payment} and moves its order from PENDING to PAID if it is not past its deadline
     * at {@code now} (the same comparison the timeout sweep makes, so the two never both win), in one
     * transaction: the payment row (seckill_payment, keyed by the payment id) commits with the status
     * change or not at all.
     */
    PaymentResult pay(Payment payment, Instant now);

    /**
     * What a payment of the order must be: the price the order was sold at times its quantity, as its
     * row holds it (a price never changes once the order is written, so this may be read before paying).
     */
    AmountDue amountDue(String orderNo);

    /**
     * The world an order belongs to, from its number alone (a rehearsal's starts with {@code R}): the ledger
     * it is paid in, and the {@code world} label of the series its payment moves (docs/rehearsal.md).
     */
    static seckill.redis.World worldOf(String orderNo) {
        return seckill.ledger.sql.OrderNumbers.worldOf(orderNo);
    }
}
