package seckill.app.http;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A launch's SKU name, price and picture (issue #33) are read strictly: every bad one is a 400 that
 * names the field, nothing else is created; a launch without them reads as before.
 */
class SkuShowingValidationTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    /** The picture folder holds phone.png and nothing else. */
    private static final Function<String, Optional<String>> PICTURES = name -> name.equals("phone.png")
            ? Optional.empty() : Optional.of("must name a picture in the folder");

    private static NewActivity read(String sku) {
        return AdminActivitiesResource.read(JsonBody.parse("""
                {"name":"s","startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T11:00:00Z",
                 "skus":[{"skuId":1,"stock":5,%s}]}""".formatted(sku)), NOW, PICTURES);
    }

    private static String refusal(String sku) {
        Problem problem = assertThrows(Problem.class, () -> read(sku));
        assertThat(problem.status(), is(400));
        assertThat(problem.code(), is("INVALID_REQUEST"));
        return problem.getMessage();
    }

    @Test
    void aSkuWithANamePriceAndPictureIsRead() {
        SkuLine line = read("""
                "name":"<b>Phone</b> 15","price":{"amount":"19.9","currency":"EUR"},"picture":"phone.png\"""")
                .skus().get(0);
        assertThat(line.name(), is(Optional.of("<b>Phone</b> 15")));
        assertThat(line.price(), is(Optional.of(new SkuPrice(new BigDecimal("19.90"), "EUR"))));
        assertThat(line.picture(), is(Optional.of("phone.png")));
        assertThat(read("\"price\":{\"amount\":\"1500\",\"currency\":\"JPY\"}").skus().get(0).price().orElseThrow()
                .amountText(), is("1500.00"));
    }

    @Test
    void aSkuWithoutThemIsReadAsBefore() {
        SkuLine line = read("\"perUserLimit\":1").skus().get(0);
        assertThat(line, is(new SkuLine(1, 5, 1, 1)));
    }

    @Test
    void aBadPriceIsRefusedNamingItsField() {
        assertThat(refusal("\"price\":{\"amount\":\"0\",\"currency\":\"EUR\"}"),
                containsString("skus[0].price.amount must be positive"));
        assertThat(refusal("\"price\":{\"amount\":\"-1.00\",\"currency\":\"EUR\"}"), containsString("skus[0].price.amount"));
        assertThat(refusal("\"price\":{\"amount\":\"19.999\",\"currency\":\"EUR\"}"),
                containsString("skus[0].price.amount must have at most 2 decimals"));
        assertThat(refusal("\"price\":{\"amount\":\"1500.5\",\"currency\":\"JPY\"}"),
                containsString("skus[0].price.amount must have at most 0 decimals in JPY"));
        assertThat(refusal("\"price\":{\"amount\":\"1e3\",\"currency\":\"EUR\"}"), containsString("skus[0].price.amount"));
        assertThat(refusal("\"price\":{\"amount\":19.99,\"currency\":\"EUR\"}"),
                containsString("skus[0].price.amount must be a string"));
        assertThat(refusal("\"price\":{\"amount\":\"1000000000\",\"currency\":\"EUR\"}"),
                containsString("skus[0].price.amount must be at most 9 digits"));
        assertThat(refusal("\"price\":{\"amount\":\"9.99\",\"currency\":\"eur\"}"),
                containsString("skus[0].price.currency must be an ISO 4217 code"));
        assertThat(refusal("\"price\":{\"amount\":\"9.99\"}"), containsString("skus[0].price.currency is required"));
        assertThat(refusal("\"price\":\"9.99 EUR\""), containsString("skus[0].price must be an object"));
    }

    @Test
    void aBadNameIsRefusedNamingItsField() {
        assertThat(refusal("\"name\":\"\""), containsString("skus[0].name must not be blank"));
        assertThat(refusal("\"name\":\"" + "x".repeat(101) + "\""), containsString("skus[0].name must be at most 100"));
        assertThat(refusal("\"name\":\"a\\nb\""), containsString("skus[0].name must be plain text"));
        assertThat(refusal("\"name\":7"), containsString("skus[0].name must be a string"));
    }

    @Test
    void aBadPictureIsRefusedNamingItsField() {
        assertThat(refusal("\"picture\":\"other.png\""), containsString("skus[0].picture must name a picture"));
        // a SKU without a picture never asks the folder
        AdminActivitiesResource.read(JsonBody.parse("""
                {"name":"s","startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T11:00:00Z",
                 "skus":[{"skuId":1,"stock":5}]}"""), NOW, name -> Optional.of("never asked"));
    }
}
