package seckill.settlement.rules;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PriceTest {

    private final Price price = new Price(new BigDecimal("99.5"), "CNY");

    @Test
    void theExactPriceMatchesHoweverItIsWritten() {
        for (String amount : new String[] {"99.5", "99.50", "9.95E+1", "99.5000000000"}) {
            Price.Judgement judgement = price.judge(new BigDecimal(amount), "CNY");
            assertThat(amount, judgement, is(new Price.Matches(new BigDecimal("99.50"), "CNY")));
        }
    }

    @Test
    void anotherWellFormedAmountOrCurrencyIsAMismatch() {
        assertThat(price.judge(new BigDecimal("99.49"), "CNY"), instanceOf(Price.Mismatch.class));
        assertThat(price.judge(new BigDecimal("1000000"), "CNY"), instanceOf(Price.Mismatch.class));
        assertThat(price.judge(new BigDecimal("99.50"), "USD"), instanceOf(Price.Mismatch.class));
    }

    @Test
    void amountsNoLedgerColumnHoldsAreMalformed() {
        for (String amount : new String[] {"0", "0.00", "-99.50", "1e999999", "1e-999999", "99.501",
                "1000000000000", "1E+12", "0.001", "1" + "0".repeat(40)}) {
            assertThat(amount, price.judge(new BigDecimal(amount), "CNY"), instanceOf(Price.Malformed.class));
        }
        assertThat(price.judge(null, "CNY"), instanceOf(Price.Malformed.class));
        assertThat(price.judge(new BigDecimal("999999999999.99"), "CNY"), instanceOf(Price.Mismatch.class));
    }

    @Test
    void currenciesAreThreeCapitalLetters() {
        for (String currency : new String[] {null, "", "cny", "CN", "CNYY", "C1Y"}) {
            assertThat(String.valueOf(currency), price.judge(new BigDecimal("99.50"), currency),
                    instanceOf(Price.Malformed.class));
        }
    }

    @Test
    void aConfiguredPriceMustItselfBeOne() {
        assertThrows(IllegalArgumentException.class, () -> new Price(BigDecimal.ZERO, "CNY"));
        assertThrows(IllegalArgumentException.class, () -> new Price(new BigDecimal("1.005"), "CNY"));
        assertThrows(IllegalArgumentException.class, () -> new Price(new BigDecimal("1.00"), "yuan"));
    }
}
