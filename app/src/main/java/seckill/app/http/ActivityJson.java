package seckill.app.http;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;

/** JSON views of an activity. */
final class ActivityJson {

    private ActivityJson() {
    }

    static JsonObjectBuilder base(Activity activity) {
        return Jsons.PROVIDER.createObjectBuilder()
                .add("activityId", activity.id())
                .add("name", activity.name())
                .add("startsAt", activity.startsAt().toString())
                .add("endsAt", activity.endsAt().toString())
                .add("paymentWindowSeconds", activity.paymentWindow().toSeconds());
    }

    static JsonObject admin(Activity activity) {
        JsonArrayBuilder skus = Jsons.PROVIDER.createArrayBuilder();
        for (SkuLine sku : activity.skus()) {
            JsonObjectBuilder line = Jsons.PROVIDER.createObjectBuilder()
                    .add("skuId", sku.skuId())
                    .add("stock", sku.total())
                    .add("perUserLimit", sku.perUserLimit())
                    .add("buckets", sku.buckets());
            sku.name().ifPresent(n -> line.add("name", n));
            sku.price().ifPresent(p -> line.add("price", price(p)));
            sku.picture().ifPresent(p -> line.add("picture", p).add("pictureUrl", PicturesResource.pathOf(p)));
            skus.add(line);
        }
        return base(activity).add("skus", skus).build();
    }

    /** What a SKU shows a buyer (issue #33), added to its line: name, price and picture's address, each when set. */
    static JsonObjectBuilder showing(SkuLine sku, JsonObjectBuilder line) {
        sku.name().ifPresent(n -> line.add("name", n));
        sku.price().ifPresent(p -> line.add("price", price(p)));
        sku.picture().ifPresent(p -> line.add("pictureUrl", PicturesResource.pathOf(p)));
        return line;
    }

    /** A price as JSON: the exact amount as a string at scale 2 ({@code "19.90"}) and its currency. */
    static JsonObject price(SkuPrice price) {
        return Jsons.PROVIDER.createObjectBuilder().add("amount", price.amountText()).add("currency", price.currency())
                .build();
    }

    /** An amount of a currency as JSON, as {@link #price}. */
    static JsonObject money(java.math.BigDecimal amount, String currency) {
        return Jsons.PROVIDER.createObjectBuilder().add("amount", amount.toPlainString()).add("currency", currency)
                .build();
    }
}
