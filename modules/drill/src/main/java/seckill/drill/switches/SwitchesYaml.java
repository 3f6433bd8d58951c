package seckill.drill.switches;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The switches file as text: flat {@code key: value} lines (the shipped form of {@code
 * config/switches.yaml}), each optionally followed by a {@code # comment}. Changing a key rewrites
 * only the value on that key's line (its spacing and comment kept), or appends a line when the key is
 * not there; every other line, comment and blank line stays as it was. Plain text in, text out.
 */
public final class SwitchesYaml {

    /** What an appended line carries, so a reader of the file mid-drill sees who wrote it. */
    static final String APPENDED_COMMENT = "  # switch drill";

    private static final Pattern LINE = Pattern.compile("^([A-Za-z0-9_.\\-]+)(\\s*:[ \\t]*)(.*?)([ \\t]+#.*)?$");

    private SwitchesYaml() {
    }

    /**
     * Why this text cannot be edited line by line (a nested map, an indented line, a key twice), or
     * empty when it can. The drill refuses to start on such a file rather than guess.
     */
    public static Optional<String> unsupported(String text) {
        List<String> seen = new ArrayList<>();
        for (String line : lines(text)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                return Optional.of("indented line (a nested map?): " + trimmed);
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                return Optional.of("not a flat 'key: value' line: " + trimmed);
            }
            if (unquote(m.group(3)).isEmpty() && m.group(3).isEmpty()) {
                return Optional.of("a key without a value (a nested map?): " + m.group(1));
            }
            if (seen.contains(m.group(1))) {
                return Optional.of("key given twice: " + m.group(1));
            }
            seen.add(m.group(1));
        }
        return Optional.empty();
    }

    /** The value the text gives {@code key} (quotes removed), or empty when no line sets it. */
    public static Optional<String> valueOf(String text, String key) {
        for (String line : lines(text)) {
            Matcher m = LINE.matcher(line);
            if (m.matches() && m.group(1).equals(key)) {
                return Optional.of(unquote(m.group(3)));
            }
        }
        return Optional.empty();
    }

    /**
     * The text with {@code key} set to {@code value}: the key's line with only its value replaced, or,
     * when no line sets it, a line appended ({@code key: value  # switch drill}). Line endings kept.
     */
    public static String withValue(String text, String key, String value) {
        StringBuilder out = new StringBuilder(text.length() + 64);
        boolean found = false;
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            int next = end < 0 ? text.length() : end + 1;
            String raw = text.substring(start, end < 0 ? text.length() : end);
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            String ending = text.substring(start + line.length(), next);
            Matcher m = LINE.matcher(line);
            if (!found && m.matches() && m.group(1).equals(key)) {
                found = true;
                out.append(m.group(1)).append(m.group(2)).append(value)
                        .append(m.group(4) == null ? "" : m.group(4)).append(ending);
            } else {
                out.append(line).append(ending);
            }
            start = next;
        }
        if (!found) {
            if (!text.isEmpty() && !text.endsWith("\n")) {
                out.append('\n');
            }
            out.append(key).append(": ").append(value).append(APPENDED_COMMENT).append('\n');
        }
        return out.toString();
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
        return lines;
    }

    private static String unquote(String value) {
        String v = value.strip();
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
