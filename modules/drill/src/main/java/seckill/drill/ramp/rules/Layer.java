package seckill.drill.ramp.rules;

/**
 * The layers of the purchase path, in the order a request meets them: the edge in front of the
 * instances, admission (rates, halts, tokens), the reservation script on Redis, the event stream and
 * its ordering workers, and the ledger's database. When two give in the same step the one nearer
 * the buyer is named first: what it refused never reached the ones behind it.
 */
public enum Layer {
    EDGE("edge"),
    ADMISSION("admission"),
    RESERVATION("reservation"),
    STREAM("stream"),
    DATABASE("database");

    private final String jsonName;

    Layer(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name in the report (lower case). */
    public String jsonName() {
        return jsonName;
    }
}
