package seckill.drill.ramp.rules;

import java.util.Optional;

/**
 * What one purchase request of the ramp was answered, as the report counts it, and the layer a
 * refusal belongs to. The edge's own answers are told from the service's by their shape: the shipped
 * nginx edge answers its 429 with {@code "limit":"EDGE"}, and an edge that sends no problem+json at
 * all (the client then reads the code {@code HTTP_<status>}) is the edge too.
 */
public enum Answer {
    RESERVED("202", null),
    ALREADY_RESERVED("200", null),
    SOLD_OUT("410 SOLD_OUT", null),
    EDGE_THROTTLED("429 EDGE", Layer.EDGE),
    EDGE_FAILED("5xx edge", Layer.EDGE),
    NO_ANSWER("no answer", Layer.EDGE),
    ADMISSION_GLOBAL("429 GLOBAL", Layer.ADMISSION),
    ADMISSION_BUYER("429 BUYER", Layer.ADMISSION),
    BUSY("503 BUSY", Layer.RESERVATION),
    HALTED("503 HALTED", Layer.RESERVATION),
    REDIS_UNAVAILABLE("503 REDIS", Layer.RESERVATION),
    DATABASE_UNAVAILABLE("503 DATABASE_UNAVAILABLE", Layer.DATABASE),
    OTHER("other", null);

    private final String label;
    private final Layer layer;

    Answer(String label, Layer layer) {
        this.label = label;
        this.layer = layer;
    }

    /** The key in the report's {@code answers}. */
    public String label() {
        return label;
    }

    /** The layer that refused, for a refusal that says which; empty for a sale's own answers and others. */
    public Optional<Layer> layer() {
        return Optional.ofNullable(layer);
    }

    /**
     * Classifies an answer: its HTTP status, the problem's {@code code} ({@code HTTP_<status>} when the
     * body was no problem+json) and its {@code limit} field if any.
     */
    public static Answer of(int status, String code, Optional<String> limit) {
        boolean problemJson = code != null && !code.startsWith("HTTP_");
        if (status == 202) {
            return RESERVED;
        }
        if (status == 200) {
            return ALREADY_RESERVED;
        }
        if (status == 429) {
            if (!problemJson || limit.filter("EDGE"::equals).isPresent()) {
                return EDGE_THROTTLED;
            }
            return limit.filter("BUYER"::equals).isPresent() ? ADMISSION_BUYER : ADMISSION_GLOBAL;
        }
        if (status >= 500 && !problemJson) {
            return EDGE_FAILED;
        }
        if (status == 410 && "SOLD_OUT".equals(code)) {
            return SOLD_OUT;
        }
        if (status == 503) {
            return switch (code) {
                case "BUSY" -> BUSY;
                case "HALTED" -> HALTED;
                case "DATABASE_UNAVAILABLE" -> DATABASE_UNAVAILABLE;
                case "REDIS_UNAVAILABLE", "TIMEOUT", "NOT_READY" -> REDIS_UNAVAILABLE;
                default -> OTHER;
            };
        }
        return OTHER;
    }
}
