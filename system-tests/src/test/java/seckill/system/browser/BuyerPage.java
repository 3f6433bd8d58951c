package seckill.system.browser;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import redis.clients.jedis.UnifiedJedis;
import seckill.client.NewActivity;
import seckill.system.SaleFixture;

/** The buyer's page in a test's browser: a sale to show, the page opened as a buyer, its captcha solved. */
final class BuyerPage {

    static final String SALE = "Lunar New Year sale";

    private final Browser browser;
    private final SaleFixture sale;
    private final UnifiedJedis redis;

    BuyerPage(Browser browser, SaleFixture sale, UnifiedJedis redis) {
        this.browser = browser;
        this.sale = sale;
        this.redis = redis;
    }

    /** A sale of these SKUs from {@code startsAt} for an hour, launched through the admin client. */
    static long launch(SaleFixture sale, Instant startsAt, List<NewActivity.Sku> skus) {
        return sale.admin().launch(UUID.randomUUID().toString(), new NewActivity(SALE, startsAt.toString(),
                Instant.now().plusSeconds(3600).toString(), 900L, skus)).activityId();
    }

    /** Opens the page of the activity and types the buyer's id (the gateway's part in production). */
    void open(long activity, long buyer) {
        browser.open(sale.base.resolve("/?activity=" + activity).toString());
        browser.await("the activity", Duration.ofSeconds(10), d -> browser.text("name").equals(SALE));
        browser.byId("buyer-id").sendKeys(Long.toString(buyer));
    }

    /**
     * Waits for the page to show a captcha other than {@code previous} (the sale must be open),
     * types its answer, read where admission keeps it, and waits for the Buy button; returns its id.
     */
    String solveCaptcha(String previous) {
        String challengeId = browser.await("the captcha", Duration.ofSeconds(20), d -> {
            String id = browser.byId("captcha-image").getDomAttribute("data-challenge");
            boolean shown = id != null && !id.isEmpty() && !id.equals(previous) && browser.byId("captcha").isDisplayed();
            return shown ? id : null;
        });
        browser.byId("captcha-answer").sendKeys(SaleFixture.captchaAnswer(redis, challengeId));
        browser.await("the buy button", Duration.ofSeconds(10), d -> browser.byId("buy").isEnabled());
        return challengeId;
    }
}
