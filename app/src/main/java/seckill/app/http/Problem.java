package seckill.app.http;

import java.io.StringWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.stream.JsonGenerator;
import jakarta.ws.rs.core.Response;

/**
 * An RFC 9457 problem: HTTP status, a stable machine-readable {@code code}, a human title and
 * detail, and optionally how long the client should wait before retrying. Throw it from a resource;
 * {@link ProblemMapper} writes it as {@code application/problem+json}.
 */
public final class Problem extends RuntimeException {

    public static final String MEDIA_TYPE = "application/problem+json";

    private final int status;
    private final String code;
    private final String title;
    private final Duration retryAfter;
    private final Map<String, Object> extensions = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    public Problem(int status, String code, String title, String detail) {
        this(status, code, title, detail, null);
    }

    public Problem(int status, String code, String title, String detail, Duration retryAfter) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
        this.retryAfter = retryAfter;
    }

    public Problem with(String name, Object value) {
        extensions.put(name, value);
        return this;
    }

    public Problem header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /**
     * The problem+json body; {@code instance} is the request's path, when known. Written with a
     * generator straight to text: building a {@code JsonObject} first and printing it was most of
     * the JSON share (a tenth of the CPU) of the 429s answered at 1,000 connections (docs/perf/README.md).
     */
    String json(String instance) {
        StringWriter text = new StringWriter(160);
        try (JsonGenerator body = Jsons.PROVIDER.createGenerator(text)) {
            body.writeStartObject()
                    .write("type", "urn:seckill:problem:" + code)
                    .write("title", title)
                    .write("status", status)
                    .write("code", code);
            if (getMessage() != null) {
                body.write("detail", getMessage());
            }
            if (instance != null) {
                body.write("instance", instance);
            }
            extensions.forEach((k, v) -> {
                if (v instanceof Number n) {
                    body.write(k, n.longValue());
                } else {
                    body.write(k, String.valueOf(v));
                }
            });
            body.writeEnd();
        }
        return text.toString();
    }

    /** The headers that go with it: {@code Retry-After} (whole seconds, at least 1) and any added. */
    Map<String, String> headers() {
        Map<String, String> all = new LinkedHashMap<>();
        if (retryAfter != null) {
            all.put("Retry-After", Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        }
        all.putAll(headers);
        return all;
    }

    Response toResponse(String instance) {
        Response.ResponseBuilder response = Response.status(status).type(MEDIA_TYPE).entity(json(instance));
        headers().forEach(response::header);
        return response.build();
    }
}
