package seckill.client;

import java.util.List;

import jakarta.json.bind.annotation.JsonbCreator;

/**
 * An activity to launch: name, window (ISO-8601 instants), payment window, and its SKUs with their
 * stock, per-buyer limit and stock buckets (null fields take the service's defaults); {@code rehearsal}
 * {@code true} launches a shadow sale (docs/rehearsal.md; null: not sent, a real sale).
 */
public record NewActivity(String name, String startsAt, String endsAt, Long paymentWindowSeconds, List<Sku> skus,
                          Boolean rehearsal) {

    /** The one JSON-B reads a launch with. */
    @JsonbCreator
    public NewActivity {
    }

    /** A real sale's activity, as before rehearsals existed. */
    public NewActivity(String name, String startsAt, String endsAt, Long paymentWindowSeconds, List<Sku> skus) {
        this(name, startsAt, endsAt, paymentWindowSeconds, skus, null);
    }

    /** The same activity launched as a rehearsal (a shadow sale). */
    public NewActivity asRehearsal() {
        return new NewActivity(name, startsAt, endsAt, paymentWindowSeconds, skus, Boolean.TRUE);
    }

    /**
     * A SKU of a new activity, and what buyers are shown of it (each optional, null: not shown): its
     * {@code name} (plain text, at most 100 characters), its flash {@code price}, and its {@code picture}
     * (a file name in the service's picture folder, {@code seckill.pictures.dir}). Launched activities
     * answer with the same fields.
     */
    public record Sku(long skuId, long stock, Integer perUserLimit, Integer buckets, String name, Price price,
                      String picture) {

        /** The one JSON-B builds a launched activity's SKUs with. */
        @JsonbCreator
        public Sku {
        }

        /** A SKU shown by its id alone, as before SKUs had names and prices. */
        public Sku(long skuId, long stock, Integer perUserLimit, Integer buckets) {
            this(skuId, stock, perUserLimit, buckets, null, null, null);
        }
    }

    /**
     * An exact amount of money: {@code amount} a decimal written as a string ({@code "19.99"}; at most
     * the currency's minor units, never more than two), {@code currency} an ISO 4217 code ({@code EUR}).
     */
    public record Price(String amount, String currency) {
    }
}
