package seckill.system.browser;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import seckill.dev.api.DevServers;
import seckill.system.EdgeMarks;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The operations view while a rehearsal runs (issue #34, item 2: "the same on the operations view while it
 * runs"): a rehearsal's purchases are charted apart, one chart per answer labelled "rehearsal:", as the ramp's
 * report draws its steps, and never in the real charts: the totals the view charts as real leave them out. Real Chromium against an instance with a shadow database; purchases sent with the edge's mark.
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RehearsalOpsViewTest extends BrowserTest {

    private static final long SKU = 3407;
    private static final long BUYER = 340_701;

    @Inject
    DevServers devServers;

    @Test
    void aRehearsalsPurchasesAreChartedApartAndLabelled() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadow.url(),
                "seckill.rehearsal.launch.enabled=true", "seckill.settlement.enabled=false",
                "seckill.admission.token-required=false", "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            SaleFixture there = new SaleFixture(instance.base(), db);
            HttpResponse<String> launched = there.send(admin(there, "/api/v1/admin/activities")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("""
                            {"name":"rehearsal on the ops view","startsAt":"%s","endsAt":"%s","rehearsal":true,
                             "skus":[{"skuId":%d,"stock":5}]}""".formatted(Instant.now().minusSeconds(5),
                            Instant.now().plusSeconds(600), SKU))));
            assertThat(launched.body(), launched.statusCode(), is(201));
            long rehearsal = SaleFixture.number(launched.body(), "activityId");

            browser.open(instance.base().resolve("/ops?activity=" + rehearsal).toString());
            browser.byId("token").sendKeys(SaleFixture.ADMIN_TOKEN);
            browser.byId("login").submit();
            // the view polls: its real charts are drawn, no rehearsal answer has one yet
            browser.await("the real purchase chart", Duration.ofSeconds(15),
                    d -> !d.findElements(By.cssSelector("[data-chart='purchases']")).isEmpty());
            assertThat(charts("rehearsal.purchases."), is(List.of()));

            for (int i = 0; i < 3; i++) {
                HttpResponse<String> bought = there.markedByTheEdge(rehearsal, BUYER + i)
                        .purchaseRetrying(rehearsal, BUYER + i, SKU, 1, "ops-rehearsal-" + i);
                assertThat(bought.body(), bought.statusCode(), is(202));
            }
            browser.await("the rehearsal's reserved answers charted apart", Duration.ofSeconds(15),
                    d -> charts("rehearsal.purchases.").contains("rehearsal.purchases.reserved"));
            WebElement reserved = browser.await("the chart", Duration.ofSeconds(5),
                    d -> d.findElement(By.cssSelector("[data-chart='rehearsal.purchases.reserved'] .muted")));
            assertThat(reserved.getText(), is("rehearsal: reserved / s"));
            // what the view charts: the rehearsal's answers apart, the real totals without them (no real sale here)
            String overview = there.send(admin(there, "/api/v1/admin/overview").GET()).body();
            JsonObject figures = Json.createReader(new StringReader(overview)).readObject();
            assertThat(overview, figures.getJsonObject("rehearsalTotals").getJsonObject("purchases").getInt("reserved"), is(3));
            assertThat(overview, figures.getJsonObject("totals").getJsonObject("purchases").getInt("reserved", 0), is(0));
            browser.screenshot("ops-rehearsal");
            assertThat(there.send(admin(there, "/api/v1/admin/activities/" + rehearsal).DELETE()).statusCode(), is(204));
        }
    }

    private static HttpRequest.Builder admin(SaleFixture sale, String path) {
        return HttpRequest.newBuilder(sale.base.resolve(path)).header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN);
    }

    private List<String> charts(String prefix) {
        return browser.await("the charts", Duration.ofSeconds(5), d -> d.findElements(By.cssSelector("[data-chart]"))
                .stream().map(e -> e.getAttribute("data-chart")).filter(name -> name.startsWith(prefix)).toList());
    }
}
