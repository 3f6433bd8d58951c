package seckill.client;

import java.io.StringReader;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

/**
 * Turns every answer of 400 or above into a {@link SeckillProblem} (typed by its {@code code}), with
 * the {@code Retry-After} header and the problem's fields; a body that is not problem+json still
 * gives a problem with code {@code HTTP_<status>}.
 */
public final class ProblemExceptions implements ResponseExceptionMapper<SeckillProblem> {

    @Override
    public boolean handles(int status, MultivaluedMap<String, Object> headers) {
        return status >= 400;
    }

    @Override
    public SeckillProblem toThrowable(Response response) {
        String body = response.hasEntity() ? response.readEntity(String.class) : "";
        Optional<Duration> retryAfter = Optional.ofNullable(response.getHeaderString("Retry-After"))
                .flatMap(ProblemExceptions::seconds);
        return of(response.getStatus(), body, retryAfter);
    }

    /** The problem for a status, a body and a Retry-After (the parsing, apart from JAX-RS). */
    static SeckillProblem of(int status, String body, Optional<Duration> retryAfter) {
        Map<String, String> fields = new HashMap<>();
        String code = "HTTP_" + status;
        String detail = null;
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonObject json = reader.readObject();
            for (Map.Entry<String, JsonValue> field : json.entrySet()) {
                JsonValue value = field.getValue();
                fields.put(field.getKey(), value instanceof JsonString text ? text.getString() : value.toString());
            }
            code = fields.getOrDefault("code", code);
            detail = fields.get("detail");
        } catch (RuntimeException notJson) {
            detail = body.isEmpty() ? null : body;
        }
        return SeckillProblem.typed(new SeckillProblem(status, code, detail, retryAfter, fields));
    }

    private static Optional<Duration> seconds(String header) {
        try {
            return Optional.of(Duration.ofSeconds(Long.parseLong(header.trim())));
        } catch (NumberFormatException httpDate) {
            return Optional.empty();
        }
    }
}
