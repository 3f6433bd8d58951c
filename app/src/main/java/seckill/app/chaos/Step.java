package seckill.app.chaos;

/**
 * One step of a chaos schedule, drawn from the seed before the run: when ({@code atMillis} after
 * the start), what, against which instance, and the step's parameters ({@code ref}: the purchase
 * step a payment, retry or resume refers to; {@code lengthMillis}: how long a fault lasts).
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
        REDIS_PAUSE;

        boolean fault() {
            return ordinal() >= KILL.ordinal();
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
        };
    }
}
