package seckill.app.http;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.SkuLine;

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
            skus.add(Jsons.PROVIDER.createObjectBuilder()
                    .add("skuId", sku.skuId())
                    .add("stock", sku.total())
                    .add("perUserLimit", sku.perUserLimit())
                    .add("buckets", sku.buckets()));
        }
        return base(activity).add("skus", skus).build();
    }
}
