package seckill.settlement.api;

/**
 * The answer to one payment callback. The payment side retries until it gets a definite answer, so
 * every outcome is stable: the same callback always gets the same answer.
 */
public sealed interface PaymentAnswer {

    /** The order is PAID by this payment ({@code repeated} when this callback was seen before). */
    record Accepted(String orderNo, String paymentId, boolean repeated) implements PaymentAnswer {
    }

    /** The signature is missing or wrong; nothing was read. */
    record BadSignature() implements PaymentAnswer {
    }

    /** The body is not a valid callback. */
    record Invalid(String detail) implements PaymentAnswer {
    }

    /** The timeout won before this payment: refund it. */
    record Expired(String orderNo) implements PaymentAnswer {
    }

    /** Another payment already paid the order: refund this one. */
    record PaidByAnother(String orderNo, String paymentId) implements PaymentAnswer {
    }

    record UnknownOrder(String orderNo) implements PaymentAnswer {
    }

    /** No signing key is configured; callbacks cannot be trusted. */
    record NotConfigured() implements PaymentAnswer {
    }
}
