package seckill.app.http;

/**
 * Names of the buyer's request: {@code X-User-Id}, which only the gateway mode reads (with its
 * signature, {@link BuyerAuthentication}), and the parsing of numeric path ids.
 */
final class Buyer {

    static final String HEADER = "X-User-Id";

    private Buyer() {
    }

    /** Parses a numeric path id; anything malformed is simply not found. */
    static long pathId(String text, String what) {
        try {
            long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new Problem(404, what.toUpperCase() + "_NOT_FOUND", "Not found", "No " + what + " " + text + ".");
    }
}
