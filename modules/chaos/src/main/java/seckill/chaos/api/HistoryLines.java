package seckill.chaos.api;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

/** The JSON form of each history line: one object, {@code "type"} naming the record. */
final class HistoryLines {

    private HistoryLines() {
    }

    static String write(HistoryEntry entry) {
        JsonObjectBuilder o = Json.createObjectBuilder();
        switch (entry) {
            case HistoryEntry.RunStarted r -> o.add("type", "run").add("seed", r.seed())
                    .add("durationMillis", r.durationMillis()).add("instances", r.instances())
                    .add("topology", r.topology()).add("wall", r.wall());
            case HistoryEntry.Planned p -> o.add("type", "plan").add("step", p.step()).add("atMillis", p.atMillis())
                    .add("kind", p.kind()).add("instance", p.instance()).add("detail", p.detail());
            case HistoryEntry.ActivityLaunched a -> {
                JsonObjectBuilder stock = Json.createObjectBuilder();
                a.stock().forEach((sku, units) -> stock.add(Long.toString(sku), units));
                var ports = Json.createArrayBuilder();
                a.ports().forEach(ports::add);
                o.add("type", "activity").add("activityId", a.activityId()).add("stock", stock)
                        .add("paymentWindowSeconds", a.paymentWindowSeconds()).add("ports", ports);
            }
            case HistoryEntry.Operation op -> {
                o.add("type", "op").add("seq", op.seq()).add("step", op.step()).add("kind", op.kind().name())
                        .add("instance", op.instance());
                optional(o, "buyer", op.buyer());
                optional(o, "activity", op.activity());
                optional(o, "sku", op.sku());
                optional(o, "requestId", op.requestId());
                o.add("sendNanos", op.sendNanos()).add("sendWall", op.sendWall())
                        .add("answerNanos", op.answerNanos()).add("answerWall", op.answerWall())
                        .add("status", op.status());
                optional(o, "body", op.body());
                optional(o, "retryAfter", op.retryAfter());
                optional(o, "error", op.error());
                optional(o, "sent", op.sent());
                optional(o, "forged", op.forged());
            }
            case HistoryEntry.FaultEvent f -> o.add("type", "fault").add("step", f.step()).add("kind", f.kind().name())
                    .add("target", f.target()).add("startNanos", f.startNanos()).add("startWall", f.startWall())
                    .add("endNanos", f.endNanos()).add("endWall", f.endWall());
            case HistoryEntry.ShelfRead r -> {
                JsonObjectBuilder units = Json.createObjectBuilder();
                r.units().forEach((sku, n) -> units.add(Long.toString(sku), n));
                o.add("type", "shelf").add("activityId", r.activityId()).add("units", units);
                if (!r.inFlight().isEmpty()) {
                    JsonObjectBuilder inFlight = Json.createObjectBuilder();
                    r.inFlight().forEach((sku, n) -> inFlight.add(Long.toString(sku), n));
                    o.add("inFlight", inFlight);
                }
                o.add("nanos", r.nanos()).add("wall", r.wall());
            }
            case HistoryEntry.Healed h -> o.add("type", "healed").add("nanos", h.nanos()).add("wall", h.wall())
                    .add("resumeBoundMillis", h.resumeBoundMillis());
        }
        return o.build().toString();
    }

    static HistoryEntry read(String line) {
        JsonObject o;
        try (JsonReader reader = Json.createReader(new StringReader(line))) {
            o = reader.readObject();
        }
        return switch (o.getString("type")) {
            case "run" -> new HistoryEntry.RunStarted(o.getJsonNumber("seed").longValue(),
                    o.getJsonNumber("durationMillis").longValue(), o.getInt("instances"), o.getString("topology"),
                    o.getString("wall"));
            case "plan" -> new HistoryEntry.Planned(o.getInt("step"), o.getJsonNumber("atMillis").longValue(),
                    o.getString("kind"), o.getInt("instance"), o.getString("detail"));
            case "activity" -> {
                Map<Long, Long> stock = new LinkedHashMap<>();
                o.getJsonObject("stock").forEach((sku, units) ->
                        stock.put(Long.parseLong(sku), ((jakarta.json.JsonNumber) units).longValue()));
                List<Integer> ports = new ArrayList<>();
                o.getJsonArray("ports").forEach(p -> ports.add(((jakarta.json.JsonNumber) p).intValue()));
                yield new HistoryEntry.ActivityLaunched(o.getJsonNumber("activityId").longValue(), stock,
                        o.getJsonNumber("paymentWindowSeconds").longValue(), ports);
            }
            case "op" -> new HistoryEntry.Operation(o.getJsonNumber("seq").longValue(), o.getInt("step"),
                    OpKind.valueOf(o.getString("kind")), o.getInt("instance"), optionalLong(o, "buyer"),
                    optionalLong(o, "activity"), optionalLong(o, "sku"), o.getString("requestId", null),
                    o.getJsonNumber("sendNanos").longValue(), o.getString("sendWall"),
                    o.getJsonNumber("answerNanos").longValue(), o.getString("answerWall"), o.getInt("status"),
                    o.getString("body", null), o.getString("retryAfter", null), o.getString("error", null),
                    o.getString("sent", null), o.getString("forged", null));
            case "fault" -> new HistoryEntry.FaultEvent(o.getInt("step"), FaultKind.valueOf(o.getString("kind")),
                    o.getString("target"), o.getJsonNumber("startNanos").longValue(), o.getString("startWall"),
                    o.getJsonNumber("endNanos").longValue(), o.getString("endWall"));
            case "shelf" -> {
                Map<Long, Long> units = new LinkedHashMap<>();
                o.getJsonObject("units").forEach((sku, n) ->
                        units.put(Long.parseLong(sku), ((jakarta.json.JsonNumber) n).longValue()));
                Map<Long, Long> inFlight = new LinkedHashMap<>();
                if (o.containsKey("inFlight")) {
                    o.getJsonObject("inFlight").forEach((sku, n) ->
                            inFlight.put(Long.parseLong(sku), ((jakarta.json.JsonNumber) n).longValue()));
                }
                yield new HistoryEntry.ShelfRead(o.getJsonNumber("activityId").longValue(), units, inFlight,
                        o.getJsonNumber("nanos").longValue(), o.getString("wall"));
            }
            case "healed" -> new HistoryEntry.Healed(o.getJsonNumber("nanos").longValue(), o.getString("wall"),
                    o.getJsonNumber("resumeBoundMillis").longValue());
            default -> throw new IllegalArgumentException("unknown history line type: " + o.getString("type"));
        };
    }

    private static void optional(JsonObjectBuilder o, String name, Long value) {
        if (value != null) {
            o.add(name, value);
        }
    }

    private static void optional(JsonObjectBuilder o, String name, String value) {
        if (value != null) {
            o.add(name, value);
        }
    }

    private static Long optionalLong(JsonObject o, String name) {
        JsonValue v = o.get(name);
        return v == null || v == JsonValue.NULL ? null : ((jakarta.json.JsonNumber) v).longValue();
    }
}
