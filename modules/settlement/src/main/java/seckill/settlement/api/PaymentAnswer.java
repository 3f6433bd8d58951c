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

    /**
     * A true signature whose timestamp is more than {@code window} from this service's clock: a
     * replayed callback, or a payment side whose clock is off. Nothing was read; sign again now.
     */
    record StaleSignature(java.time.Duration window) implements PaymentAnswer {
    }

    /** The amount or currency is not the order's price: nothing was recorded, refund it. */
    record AmountMismatch(String orderNo, String detail) implements PaymentAnswer {
    }

    /** The payment id is already recorded for another order ({@code usedFor}): nothing was changed. */
    record PaymentIdReused(String orderNo, String paymentId, String usedFor) implements PaymentAnswer {
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

    /**
     * No signing key is configured, or the order has no price of its own and none is configured
     * ({@code missing} names the key): the callback cannot be judged.
     */
    record NotConfigured(String missing) implements PaymentAnswer {
    }
}
