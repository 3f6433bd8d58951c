package seckill.app.http;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import org.junit.jupiter.api.Test;

/** The purchase route's requestId rule, {@code [A-Za-z0-9._:-]{1,64}}, checked by a table instead of a regex. */
class RequestIdTest {

    @Test
    void lettersDigitsAndDotUnderscoreColonDashUpTo64AreARequestId() {
        assertThat(PurchaseRoute.isRequestId("a"), is(true));
        assertThat(PurchaseRoute.isRequestId("Order-2026.11:30_x9"), is(true));
        assertThat(PurchaseRoute.isRequestId("x".repeat(64)), is(true));
    }

    @Test
    void anythingElseIsNot() {
        assertThat(PurchaseRoute.isRequestId(""), is(false));
        assertThat(PurchaseRoute.isRequestId("x".repeat(65)), is(false));
        for (String bad : new String[] {"bad id!", "a/b", "a b", "a\u0000", "é", "１２３", "a\u0130", "{x}", "a,b", "a\nb"}) {
            assertThat(bad, PurchaseRoute.isRequestId(bad), is(false));
        }
        // every ASCII character outside the rule, one by one
        String allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-";
        for (char c = 0; c < 256; c++) {
            assertThat("char " + (int) c, PurchaseRoute.isRequestId("a" + c), is(allowed.indexOf(c) >= 0));
        }
    }
}
