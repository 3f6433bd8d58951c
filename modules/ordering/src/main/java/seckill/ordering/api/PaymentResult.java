package seckill.ordering.api;

/**
 * What the ledger decided for one payment. Only the compare-and-set from PENDING to PAID decides;
 * a payment that arrives after the timeout won is {@link Expired}, and the payment side refunds.
 */
public sealed interface PaymentResult {

    /** This payment moved the order to PAID. */
    record Paid(String orderNo) implements PaymentResult {
    }

    /** The order was already paid; {@code paymentId} is the payment that paid it. */
    record AlreadyPaid(String orderNo, String paymentId) implements PaymentResult {
    }

    /** The timeout won: the order is TIMEOUT and its stock was returned. */
    record Expired(String orderNo) implements PaymentResult {
    }

    /** No order with that number. */
    record UnknownOrder(String orderNo) implements PaymentResult {
    }
}
