package seckill.drill.chaos;

/**
 * One step of a chaos schedule, drawn from the seed before the run: when ({@code atMillis} after
 * the start), what, against which instance, and the step's parameters ({@code ref}: the purchase
 * step a payment, retry or resume refers to; {@code lengthMillis}: how long a fault lasts). A Redis node
 * fault ({@code MASTER_KILL}, {@code REPLICA_FREEZE}) names its node by shard ({@code ref}) and, for a
 * replica, by its number among the shard's live replicas ({@code buyer}), looked up when it starts.
 */
record Step(int index, long atMillis, Kind kind, int instance, long buyer, long sku, String requestId, int ref,
            long lengthMillis, String variant) {

    enum Kind {
        /** A buyer's first click. */
        PURCHASE,
        /** The same click again with the same requestId (a double click, or a retry after a lost or 5xx answer). */
        RETRY,
        /** The buyer's requestId of an earlier purchase, sent for another SKU. */
        REUSED_ID,
        /** A payment of the order an earlier purchase made: on time, late, twice, by variant. */
        PAY,
        HALT,
        RESUME,
        HOSTILE,
        KILL,
        PAUSE_PROCESS,
        DB_CUT,
        REDIS_CUT,
        REDIS_PAUSE,
        /** {@code kill -9} of a Redis master (behind Sentinel, or one cluster shard's), brought back as a replica. */
        MASTER_KILL,
        /** {@code SIGSTOP} of a Redis replica, {@code SIGCONT} at the fault's end. */
        REPLICA_FREEZE,
        /** Keys deleted from outside (variant: {@code quiet-bucket}, {@code stream-registry}, {@code node-leases}). */
        KEY_LOSS,
        /** {@code maxmemory} and a policy set on the run's Redis (variant: the policy), reverted at the end. */
        EVICTION,
        /**
         * An operator's hot switch written to one instance's {@code switches.yaml} (variant
         * {@code key=value}; the flip and, 3-8 s later, its default again are two steps). Not a fault.
         */
        SWITCH_FLIP,
        /**
         * A payment callback the service must refuse (variant: how it is forged, {@link ChaosPlan#FORGERIES}),
         * for the order an earlier purchase ({@code ref}, −1: none) made, or for an order number that does
         * not exist. Drawn after every other step. Not a fault.
         */
        HOSTILE_PAY,
        /**
         * One instance's wall clock moved (variant: the offset in seconds, {@code +120}, {@code -45}) for the
         * step's length, then put back: the instance runs under Debian's {@code faketime} (libfaketime) with a
         * timestamp file the runner rewrites. Drawn after every other step.
         */
        CLOCK_MOVE;

        boolean fault() {
            return ordinal() >= KILL.ordinal() && this != SWITCH_FLIP && this != HOSTILE_PAY;
        }
    }

    String describe() {
        return switch (kind) {
            case PURCHASE, RETRY, REUSED_ID -> "buyer " + buyer + " sku " + sku + " requestId " + requestId
                    + (ref >= 0 ? " (of step " + ref + ")" : "");
            case PAY -> variant + " payment of step " + ref;
            case HALT -> "halt";
            case RESUME -> "resume (halted at step " + ref + ")";
            case HOSTILE -> variant;
            case KILL, PAUSE_PROCESS, DB_CUT, REDIS_CUT, REDIS_PAUSE -> "for " + lengthMillis + " ms";
            case MASTER_KILL -> "shard " + ref + "'s master, for " + lengthMillis + " ms";
            case REPLICA_FREEZE -> "shard " + ref + "'s replica " + buyer + ", for " + lengthMillis + " ms";
            case KEY_LOSS -> variant + (variant.equals("quiet-bucket") ? " sku " + sku + " bucket " + ref : "")
                    + ", for " + lengthMillis + " ms";
            case EVICTION -> "maxmemory-policy " + variant + ", for " + lengthMillis + " ms";
            case SWITCH_FLIP -> variant + (ref >= 0 ? " (back, flipped at step " + ref + ")" : "");
            case HOSTILE_PAY -> variant + " payment callback" + (ref >= 0 ? " for the order of step " + ref : "")
                    + " (must be refused)";
            case CLOCK_MOVE -> "wall clock moved " + variant + " s, for " + lengthMillis + " ms";
        };
    }
}
