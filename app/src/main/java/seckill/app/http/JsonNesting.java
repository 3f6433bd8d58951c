package seckill.app.http;

/**
 * How deep a JSON text nests its arrays and objects, counted over the raw characters before any
 * parser sees them. Parsson refuses more than 1,000 levels with a plain {@code RuntimeException}
 * (not a {@code JsonException}), which surfaced as a 500 with a stack trace per request (issue #36);
 * counting first turns any such body into the client's 400 and keeps the parser off it entirely.
 * Brackets inside strings do not count; the text need not be valid JSON (the parser judges that).
 */
final class JsonNesting {

    private JsonNesting() {
    }

    /** True when {@code text} opens more than {@code limit} arrays or objects inside one another. */
    static boolean deeperThan(CharSequence text, int limit) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                if (++depth > limit) {
                    return true;
                }
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return false;
    }
}
