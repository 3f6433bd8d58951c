package seckill.chaos.api;

/** The promises a chaos run is judged on, each with the sentence the verdict prints. */
public enum Promise {
    RESERVATION_SETTLED("every 202/200 reservation ends as exactly one order, or as FAILED with its unit back"),
    NO_PHANTOM_ORDER("no order without a request that could have made it (same activity, SKU, buyer and requestId)"),
    NOT_OVERSOLD("no SKU has more units held by live orders (status <> 2) than its stock"),
    ONE_ORDER_PER_BUYER("no buyer has two orders of one SKU"),
    NO_STRANDED_UNIT("every unit is on the shelf in Redis, held by a live order, or on its way back (outbox):"
            + " Redis stock + live units + pending refills == total, so stock that demand exceeded sells out"),
    NO_500("no request was answered with a 5xx other than 503"),
    RETRY_AFTER("every 429 and 503 carried Retry-After"),
    RESUMES_AFTER_HEAL("after the last fault healed, every instance answered a purchase (not 5xx, not 429) within"
            + " the stated bound"),
    RECONCILED_CLEAN("reconciliation through the admin API at the end reports every SKU CLEAN"),
    NO_FORGED_PAYMENT("every PAID order was paid by a genuine callback the history shows (its order number and"
            + " payment id), and every forged callback was refused (never 2xx) and left no seckill_payment row"),
    NO_STALE_SOLD_OUT("no buyer was told 410 SOLD_OUT while units of the SKU sat on the shelf from before the"
            + " request (by more than the bound) until the end of the run, unsold"),
    ON_TIME_PAYMENT_ACCEPTED("no genuine payment answered before its order's payment window can have ended (the"
            + " window counted from the first purchase that could have made the order, less the margin) was"
            + " refused ORDER_EXPIRED");

    private final String sentence;

    Promise(String sentence) {
        this.sentence = sentence;
    }

    public String sentence() {
        return sentence;
    }
}
