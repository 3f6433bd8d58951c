package seckill.app.http;

/**
 * The buyer of a request, as the gateway authenticated it in {@code X-User-Id}: a positive decimal
 * number. Anything else is an unauthenticated request.
 */
final class Buyer {

    static final String HEADER = "X-User-Id";

    private Buyer() {
    }

    static long from(String header) {
        if (header != null && !header.isEmpty() && header.length() <= 18) {
            long id = 0;
            for (int i = 0; i < header.length(); i++) {
                char c = header.charAt(i);
                if (c < '0' || c > '9') {
                    throw unauthenticated();
                }
                id = id * 10 + (c - '0');
            }
            if (id > 0) {
                return id;
            }
        }
        throw unauthenticated();
    }

    private static Problem unauthenticated() {
        return new Problem(401, "UNAUTHENTICATED", "Unauthenticated",
                "Header " + HEADER + " must carry the authenticated buyer's id (a positive integer).")
                .header("WWW-Authenticate", "X-User-Id realm=\"seckill\"");
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
