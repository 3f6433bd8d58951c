package seckill.app.http;

import java.util.OptionalLong;

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
        return positive(text).orElseThrow(() -> new Problem(404, what.toUpperCase() + "_NOT_FOUND", "Not found",
                "No " + what + " " + text + "."));
    }

    /** {@code text} as a positive number, if it is one (ids in paths and queries). */
    static OptionalLong positive(String text) {
        try {
            long id = Long.parseLong(text);
            return id > 0 ? OptionalLong.of(id) : OptionalLong.empty();
        } catch (NumberFormatException notANumber) {
            return OptionalLong.empty();
        }
    }
}
