package seckill.drill.switches;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import seckill.client.RehearsalMark;

/**
 * One instance as the switch drill asks it, over plain HTTP with a short timeout per request (a paused
 * instance must not hold the drill up): its switches in force ({@code GET /api/v1/admin/switches}),
 * its sales state, halt and resume, the activities it lists, and a probe purchase.
 */
final class InstanceApi {

    /** An answer that never came (timeout, refused connection). */
    static final String NO_ANSWER = "no answer";

    private final URI base;
    private final String adminToken;
    private final HttpClient http;
    private final Duration timeout;
    /** The sales whose halt {@link #sales()}, {@link #halt()} and {@link #resume()} ask: "" real, or "?world=rehearsal". */
    private final String world;

    InstanceApi(URI base, String adminToken, HttpClient http, Duration timeout) {
        this(base, adminToken, http, timeout, "");
    }

    private InstanceApi(URI base, String adminToken, HttpClient http, Duration timeout, String world) {
        this.base = base;
        this.adminToken = adminToken;
        this.http = http;
        this.timeout = timeout;
        this.world = world;
    }

    /**
     * The same instance whose sales state, halt and resume are the rehearsals' own ({@code ?world=rehearsal},
     * docs/rehearsal.md: one halt per world), leaving real sales alone.
     */
    InstanceApi rehearsals() {
        return new InstanceApi(base, adminToken, http, timeout, "?world=rehearsal");
    }

    URI base() {
        return base;
    }

    /**
     * The same instance asked with {@code longer} a timeout: for the drill's setup (an instance that has just
     * started answers its first requests slowly), never while a flip is timed.
     */
    InstanceApi patient(Duration longer) {
        return new InstanceApi(base, adminToken, http, longer, world);
    }

    /** Each switch in force: key to {value, source}. */
    Map<String, String[]> switches() throws IOException, InterruptedException {
        JsonObject json = object(admin("GET", "/api/v1/admin/switches", 200));
        Map<String, String[]> switches = new LinkedHashMap<>();
        json.forEach((key, v) -> switches.put(key, new String[] {v.asJsonObject().getString("value", ""),
                v.asJsonObject().getString("source", "")}));
        return switches;
    }

    /** {@code OPEN} or {@code HALTED: <reason>}. */
    String sales() throws IOException, InterruptedException {
        return state(object(admin("GET", "/api/v1/admin/sales" + world, 200)));
    }

    String halt() throws IOException, InterruptedException {
        return state(object(admin("POST", "/api/v1/admin/sales/halt" + world, 200)));
    }

    /** Resumes this instance's sales (not forced: it reconciles first); the answer's status and body. */
    HttpResponse<String> resume() throws IOException, InterruptedException {
        return send(adminRequest("POST", "/api/v1/admin/sales/resume" + world).POST(HttpRequest.BodyPublishers.noBody()));
    }

    JsonObject overview() throws IOException, InterruptedException {
        return object(admin("GET", "/api/v1/admin/overview", 200));
    }

    /** The instance launches no rehearsal ({@code 501 REHEARSAL_NOT_AVAILABLE}): nothing was created. */
    static final class RehearsalNotAvailable extends IOException {
        RehearsalNotAvailable(String message) {
            super(message);
        }
    }

    /** Creates an activity; its id. */
    long launch(String json, String idempotencyKey) throws IOException, InterruptedException {
        HttpResponse<String> answer = send(adminRequest("POST", "/api/v1/admin/activities")
                .header("Content-Type", "application/json").header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
        if (answer.statusCode() == 501) {
            throw new RehearsalNotAvailable(base + " launches no rehearsal: " + answer.statusCode() + " " + answer.body());
        }
        if (answer.statusCode() != 201) {
            throw new IOException(base + ": creating the probe activity answered " + answer.statusCode() + " "
                    + answer.body());
        }
        return object(answer.body()).getJsonNumber("activityId").longValue();
    }

    /** Purges a rehearsal ({@code DELETE}, docs/rehearsal.md "The purge"); {@code 204}, else an {@link IOException}. */
    void purge(long activity) throws IOException, InterruptedException {
        HttpResponse<String> answer = send(adminRequest("DELETE", "/api/v1/admin/activities/" + activity).DELETE());
        if (answer.statusCode() != 204) {
            throw new IOException(base + ": purging rehearsal " + activity + " answered " + answer.statusCode() + " "
                    + answer.body());
        }
    }

    /**
     * A purchase of {@code quantity} as {@code bearer}'s buyer; its answer in short: {@code 409
     * INSUFFICIENT_STOCK}, {@code 503 HALTED}, {@code 429 THROTTLED GLOBAL}, {@code 202}, or {@link #NO_ANSWER}.
     */
    String purchase(long activity, long sku, int quantity, String requestId, String bearer) throws InterruptedException {
        return purchase(activity, sku, quantity, requestId, bearer, null);
    }

    /** The same with the edge's rehearsal mark ({@code X-Seckill-Rehearsal}; null: none), for a rehearsal's activity. */
    String purchase(long activity, long sku, int quantity, String requestId, String bearer, String rehearsalMark)
            throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .timeout(timeout).header("Authorization", "Bearer " + bearer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":%d,\"requestId\":\"%s\"}"
                        .formatted(sku, quantity, requestId)));
        if (rehearsalMark != null) {
            request.header(RehearsalMark.HEADER, rehearsalMark);
        }
        try {
            return answer(send(request));
        } catch (IOException e) {
            return NO_ANSWER;
        }
    }

    /** A purchase answer in short: its status, the problem's code, and a throttle's limit. */
    static String answer(HttpResponse<String> response) {
        String text = Integer.toString(response.statusCode());
        try {
            JsonObject problem = object(response.body());
            if (problem.containsKey("code") && problem.get("code").getValueType() == JsonValue.ValueType.STRING) {
                text += " " + problem.getString("code");
            }
            if (problem.containsKey("limit") && problem.get("limit").getValueType() == JsonValue.ValueType.STRING) {
                text += " " + problem.getString("limit");
            }
        } catch (RuntimeException notJson) {
            // a status alone
        }
        return text;
    }

    private String admin(String method, String path, int expected) throws IOException, InterruptedException {
        HttpRequest.Builder request = adminRequest(method, path);
        if (method.equals("POST")) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> answer = send(request);
        if (answer.statusCode() != expected) {
            throw new IOException(base + path + " answered " + answer.statusCode() + " " + answer.body());
        }
        return answer.body();
    }

    private HttpRequest.Builder adminRequest(String method, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                .header("Authorization", "Bearer " + adminToken);
        return method.equals("GET") ? request.GET() : request;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String state(JsonObject sales) {
        String state = sales.getString("state", "?");
        return sales.containsKey("reason") ? state + ": " + sales.getString("reason", "") : state;
    }

    static JsonObject object(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
