package seckill.system.browser;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

/** The running service with a real browser per test (Debian's Chromium, headless) and the buyer's page in it. */
abstract class BrowserTest extends ServiceTest {

    protected SaleFixture sale;
    protected Browser browser;
    protected BuyerPage page;

    @BeforeEach
    void openBrowser() throws Exception {
        sale = new SaleFixture(target.getUri(), db);
        browser = Browser.start();
        page = new BuyerPage(browser, sale, redis);
    }

    @AfterEach
    void closeBrowser() throws Exception {
        if (browser != null) {
            browser.close();
        }
    }
}
