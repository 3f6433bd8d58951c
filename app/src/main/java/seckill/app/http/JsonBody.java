package seckill.app.http;

import java.io.StringReader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Strict reading of a JSON request body. Every violation is collected, and {@link #check()} turns
 * them into one 400 problem that names them all, so a client fixes its request in one round.
 */
final class JsonBody {

    private static final int MAX_BODY_CHARS = 64 * 1024;
    /**
     * The deepest body this API takes nests three levels (an activity, its {@code skus}, a SKU); this
     * leaves room to grow and refuses, before parsing, what only an attacker sends (issue #36).
     */
    static final int MAX_DEPTH = 16;

    private final JsonObject object;
    private final String prefix;
    private final List<String> errors;

    private JsonBody(JsonObject object, String prefix, List<String> errors) {
        this.object = object;
        this.prefix = prefix;
        this.errors = errors;
    }

    static JsonBody parse(String text) {
        if (text == null || text.isBlank()) {
            throw invalid("The request body is empty; a JSON object is expected.");
        }
        if (text.length() > MAX_BODY_CHARS) {
            throw new Problem(413, "BODY_TOO_LARGE", "Body too large", "The request body exceeds 64 KiB.");
        }
        if (JsonNesting.deeperThan(text, MAX_DEPTH)) {
            throw invalid("The request body nests arrays or objects deeper than " + MAX_DEPTH + " levels.");
        }
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw invalid("The request body must be a JSON object.");
            }
            return new JsonBody(value.asJsonObject(), "", new ArrayList<>());
        } catch (jakarta.json.JsonException e) {
            throw invalid("The request body is not valid JSON.");
        }
    }

    static Problem invalid(String detail) {
        return new Problem(400, "INVALID_REQUEST", "Invalid request", detail);
    }

    /** Throws one 400 problem naming every violation found so far. */
    void check() {
        if (!errors.isEmpty()) {
            throw invalid(String.join("; ", errors));
        }
    }

    void fail(String field, String message) {
        errors.add(prefix + field + " " + message);
    }

    Optional<String> text(String field, boolean required, int maxLength) {
        Optional<String> written = string(field, required);
        if (written.isEmpty()) {
            return written;
        }
        String s = written.get();
        if (s.isBlank() || s.length() > maxLength) {
            fail(field, "must be 1.." + maxLength + " characters");
            return Optional.empty();
        }
        return Optional.of(s);
    }

    Optional<Long> integer(String field, boolean required, long min, long max) {
        JsonValue value = object.get(field);
        if (value == null || value == JsonValue.NULL) {
            if (required) {
                fail(field, "is required");
            }
            return Optional.empty();
        }
        if (!(value instanceof JsonNumber number) || !number.isIntegral()) {
            fail(field, "must be an integer");
            return Optional.empty();
        }
        long n;
        try {
            n = number.longValueExact();
        } catch (ArithmeticException e) {
            fail(field, "is out of range");
            return Optional.empty();
        }
        if (n < min || n > max) {
            fail(field, "must be between " + min + " and " + max);
            return Optional.empty();
        }
        return Optional.of(n);
    }

    Optional<Instant> instant(String field, boolean required) {
        return text(field, required, 64).flatMap(s -> {
            try {
                return Optional.of(Instant.parse(s));
            } catch (DateTimeParseException e) {
                fail(field, "must be an ISO-8601 instant such as 2026-12-01T10:00:00Z");
                return Optional.empty();
            }
        });
    }

    /** A boolean field; empty when absent or null. */
    Optional<Boolean> bool(String field) {
        JsonValue value = object.get(field);
        if (value == null || value == JsonValue.NULL) {
            return Optional.empty();
        }
        if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
            fail(field, "must be true or false");
            return Optional.empty();
        }
        return Optional.of(value == JsonValue.TRUE);
    }

    /** A nested object as a body of its own (its errors reported here, prefixed), or empty when absent or not an object. */
    Optional<JsonBody> object(String field) {
        JsonValue value = object.get(field);
        if (value == null || value == JsonValue.NULL) {
            return Optional.empty();
        }
        if (!(value instanceof JsonObject o)) {
            fail(field, "must be an object");
            return Optional.empty();
        }
        return Optional.of(new JsonBody(o, prefix + field + ".", errors));
    }

    /** A string field as written, with no checks beyond its type (the caller judges it); empty when absent. */
    Optional<String> string(String field, boolean required) {
        JsonValue value = object.get(field);
        if (value == null || value == JsonValue.NULL) {
            if (required) {
                fail(field, "is required");
            }
            return Optional.empty();
        }
        if (!(value instanceof JsonString string)) {
            fail(field, "must be a string");
            return Optional.empty();
        }
        return Optional.of(string.getString());
    }

    /** The array's elements as bodies of their own; their errors are reported here, prefixed. */
    List<JsonBody> objects(String field, int minSize, int maxSize) {
        JsonValue value = object.get(field);
        if (!(value instanceof JsonArray array)) {
            fail(field, "must be an array");
            return List.of();
        }
        if (array.size() < minSize || array.size() > maxSize) {
            fail(field, "must have " + minSize + ".." + maxSize + " elements");
            return List.of();
        }
        List<JsonBody> bodies = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonValue element = array.get(i);
            if (element instanceof JsonObject o) {
                bodies.add(new JsonBody(o, prefix + field + "[" + i + "].", errors));
            } else {
                fail(field + "[" + i + "]", "must be an object");
            }
        }
        return bodies;
    }
}
