package seckill.admission.api;

/**
 * Why sales are halted on an instance. The reasons where the arbiter (Redis) was in doubt are lifted
 * by settlement itself once every live SKU reconciles clean; an operator's halt only by an operator.
 * {@link #words()} is what clients and probes are shown: stable, never a client library's error text.
 */
public enum HaltReason {

    /** A reservation script's outcome is unknown: Redis did not answer it. */
    RESERVATION_STORE_IN_DOUBT("redis: reservation store did not answer", true),
    /** The call leasing the global rate did not answer: Redis, the arbiter of the reservation too, is in doubt. */
    RATE_LIMITS_IN_DOUBT("redis: rate limits unavailable", true),
    /** An operator halted this instance ({@code POST /api/v1/admin/sales/halt}). */
    OPERATOR("operator", false),
    /** The hot switch {@code seckill.admission.halt} is on. */
    OPERATOR_SWITCH("operator switch", false);

    private final String words;
    private final boolean arbiterInDoubt;

    HaltReason(String words, boolean arbiterInDoubt) {
        this.words = words;
        this.arbiterInDoubt = arbiterInDoubt;
    }

    public String words() {
        return words;
    }

    /** Whether settlement may resume sales by itself once reconciliation is clean. */
    public boolean arbiterInDoubt() {
        return arbiterInDoubt;
    }
}
