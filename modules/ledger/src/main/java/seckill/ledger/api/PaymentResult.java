package seckill.ledger.api;

/**
 * What the ledger decided for one payment. Only the compare-and-set from PENDING to PAID decides,
 * and only before the order's deadline by the ledger's clock; a payment that arrives after it is
 * {@link Expired} whether or not the timeout sweep has run, and the payment side refunds. A payment
 * id belongs to the first order it was recorded for ({@link PaymentIdUsed} for any other).
 */
public sealed interface PaymentResult {

    /** This payment moved the order to PAID. */
    record Paid(String orderNo) implements PaymentResult {
    }

    /** The order was already paid; {@code paymentId} is the payment that paid it. */
    record AlreadyPaid(String orderNo, String paymentId) implements PaymentResult {
    }

    /** The timeout won: the order is TIMEOUT, or past its deadline and left for the sweep to time out. */
    record Expired(String orderNo) implements PaymentResult {
    }

    /** No order with that number. */
    record UnknownOrder(String orderNo) implements PaymentResult {
    }

    /** The payment id is recorded for another order ({@code usedFor}); nothing was changed. */
    record PaymentIdUsed(String orderNo, String paymentId, String usedFor) implements PaymentResult {
    }
}
