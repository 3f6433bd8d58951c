package seckill.admission.api;

/**
 * Why sales are halted on an instance. The reasons where the arbiter (Redis) was in doubt, or lacks
 * the replicas a reservation must reach, are lifted by settlement itself once the cause is gone and
 * every live SKU reconciles clean; an operator's halt only by an operator. {@link #words()} is what
 * clients and probes are shown: stable, never a client library's error text.
 */
public sealed interface HaltReason {

    /** A reservation script's outcome is unknown: Redis did not answer it. */
    HaltReason RESERVATION_STORE_IN_DOUBT = new Named("RESERVATION_STORE_IN_DOUBT", "redis: reservation store did not answer", true);
    /** The call leasing the global rate did not answer: Redis, the arbiter of the reservation too, is in doubt. */
    HaltReason RATE_LIMITS_IN_DOUBT = new Named("RATE_LIMITS_IN_DOUBT", "redis: rate limits unavailable", true);
    /** An operator halted this instance ({@code POST /api/v1/admin/sales/halt}). */
    HaltReason OPERATOR = new Named("OPERATOR", "operator", false);
    /** The hot switch {@code seckill.admission.halt} is on. */
    HaltReason OPERATOR_SWITCH = new Named("OPERATOR_SWITCH", "operator switch", false);

    String words();

    /** Whether settlement may resume sales by itself once the cause is gone and reconciliation is clean. */
    boolean arbiterInDoubt();

    /**
     * A reason with fixed words: Redis did not answer a call whose writes matter (what it holds must be
     * counted before selling again: {@code arbiterInDoubt}), or an operator stopped sales (only an
     * operator starts them again).
     */
    record Named(String code, String words, boolean arbiterInDoubt) implements HaltReason {
        /** The constant's name, as logs and tests knew it when this was an enum. */
        @Override
        public String toString() {
            return code;
        }
    }

    /**
     * The master has fewer replicas connected than a reservation must reach
     * ({@code seckill.redis.min-replica-acks}): every reservation would be in doubt until one is back,
     * so sales stay halted until then (or an operator lowers the requirement), not resumed to halt again.
     */
    record NoReplica(long connected, int required) implements HaltReason {
        @Override
        public String words() {
            return "redis: NO_REPLICA: " + connected + " of " + required + " required replica(s) connected";
        }

        @Override
        public boolean arbiterInDoubt() {
            return true;
        }
    }

    /**
     * The Redis namespace is bound to another ledger than this instance's, or holds a sale's data
     * bound to none: its events are not this ledger's to order, so nothing is sold until an operator
     * points the instance at the right stores (or re-keys the binding) and resumes.
     */
    record ForeignLedger(String detail) implements HaltReason {
        @Override
        public String words() {
            return "ledger: " + detail;
        }

        @Override
        public boolean arbiterInDoubt() {
            return false;
        }
    }

    /**
     * The Redis may evict the sale's keys ({@code maxmemory-policy} other than {@code noeviction}): a
     * reservation answered 202 could vanish with its stream, so nothing is sold until the policy is
     * {@code noeviction} again; then settlement resumes by itself once every live SKU reconciles clean.
     */
    record EvictionPolicy(String detail) implements HaltReason {
        @Override
        public String words() {
            return "redis: EVICTION_POLICY: " + detail + " may evict the sale's keys; only noeviction keeps them";
        }

        @Override
        public boolean arbiterInDoubt() {
            return true;
        }
    }
}
