package seckill.settlement.rules;

/**
 * How deep a callback body nests its arrays and objects, counted over the raw bytes before the
 * parser sees them: Parsson refuses more than 1,000 levels with a plain {@code RuntimeException}, not
 * a {@code JsonException}, which answered 500 with a stack trace in the log (issue #36). UTF-8 never
 * puts a bracket or a quote byte inside a multi-byte character, so bytes are counted as they come.
 * (The web edge counts its JSON bodies the same way; this module does not depend on it.)
 */
public final class JsonNesting {

    private JsonNesting() {
    }

    /** True when {@code body} opens more than {@code limit} arrays or objects inside one another. */
    public static boolean deeperThan(byte[] body, int limit) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < body.length; i++) {
            byte b = body[i];
            if (inString) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '[' || b == '{') {
                if (++depth > limit) {
                    return true;
                }
            } else if (b == ']' || b == '}') {
                depth--;
            }
        }
        return false;
    }
}
