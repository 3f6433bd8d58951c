package seckill.ledger.api.catalogue;

import java.math.BigDecimal;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What a SKU's name, price and picture may be (issue #33): plain rules, no I/O. */
class SkuShowingTest {

    @Test
    void aPriceIsAPositiveAmountInItsCurrencysMinorUnits() {
        assertThat(SkuPrice.amountProblem(new BigDecimal("19.99"), "EUR"), is(Optional.empty()));
        assertThat(SkuPrice.amountProblem(new BigDecimal("19.9"), "EUR"), is(Optional.empty()));
        assertThat(SkuPrice.amountProblem(new BigDecimal("1500"), "JPY"), is(Optional.empty()));
        assertThat(SkuPrice.amountProblem(new BigDecimal("1500.00"), "JPY"), is(Optional.empty()));
        assertThat(SkuPrice.amountProblem(new BigDecimal("0"), "EUR").orElseThrow(), containsString("positive"));
        assertThat(SkuPrice.amountProblem(new BigDecimal("-1.00"), "EUR").orElseThrow(), containsString("positive"));
        assertThat(SkuPrice.amountProblem(new BigDecimal("19.999"), "EUR").orElseThrow(), containsString("2 decimal"));
        assertThat(SkuPrice.amountProblem(new BigDecimal("1500.5"), "JPY").orElseThrow(), containsString("0 decimal"));
        // a currency with three minor units is still held to the ledger's two
        assertThat(SkuPrice.amountProblem(new BigDecimal("1.005"), "BHD").orElseThrow(), containsString("2 decimal"));
        assertThat(SkuPrice.amountProblem(new BigDecimal("1000000000"), "EUR").orElseThrow(), containsString("at most"));
        assertThat(SkuPrice.amountProblem(new BigDecimal("999999999.99"), "EUR"), is(Optional.empty()));
        assertThat(SkuPrice.amountProblem(new BigDecimal("1e999999"), "EUR").orElseThrow(), containsString("at most"));
    }

    @Test
    void aCurrencyIsThreeCapitalLetters() {
        assertThat(SkuPrice.currencyProblem("EUR"), is(Optional.empty()));
        for (String bad : new String[] {"eur", "EU", "EURO", "€", "E1R", ""}) {
            assertThat(bad, SkuPrice.currencyProblem(bad).isPresent(), is(true));
        }
        assertThat(SkuPrice.currencyProblem(null).isPresent(), is(true));
    }

    @Test
    void aPriceKeepsItsExactAmountAndMultipliesByQuantity() {
        SkuPrice price = new SkuPrice(new BigDecimal("19.9"), "EUR");
        assertThat(price.amount(), is(new BigDecimal("19.90")));
        assertThat(price.totalFor(3), is(new BigDecimal("59.70")));
        assertThat(new SkuPrice(new BigDecimal("1500"), "JPY").amount().toPlainString(), is("1500.00"));
        assertThrows(IllegalArgumentException.class, () -> new SkuPrice(new BigDecimal("0.001"), "EUR"));
        assertThrows(IllegalArgumentException.class, () -> new SkuPrice(new BigDecimal("1"), "eur"));
    }

    @Test
    void aNameIsShortPlainTextWithoutControlCharacters() {
        assertThat(SkuLine.nameProblem("Phone 15 <b>Pro</b> & \"friends\""), is(Optional.empty()));
        assertThat(SkuLine.nameProblem("手机"), is(Optional.empty()));
        assertThat(SkuLine.nameProblem(" ").isPresent(), is(true));
        assertThat(SkuLine.nameProblem("a".repeat(SkuLine.MAX_NAME + 1)).isPresent(), is(true));
        assertThat(SkuLine.nameProblem("a".repeat(SkuLine.MAX_NAME)), is(Optional.empty()));
        assertThat(SkuLine.nameProblem("line\nbreak").isPresent(), is(true));
        assertThat(SkuLine.nameProblem("bidi\u202Eoverride").isPresent(), is(true));
    }

    @Test
    void aPictureIsAFileNameInThePictureFolderNeverAPath() {
        for (String good : new String[] {"phone.png", "phone-15_pro.jpg", "a.jpeg", "X1.webp"}) {
            assertThat(good, SkuLine.pictureProblem(good), is(Optional.empty()));
        }
        for (String bad : new String[] {"../etc/passwd", "a/b.png", "/abs.png", ".hidden.png", "phone.gif",
                "phone.svg", "phone", "a\\b.png", "phone.png?x", "https://x/y.png", "a".repeat(101) + ".png", ""}) {
            assertThat(bad, SkuLine.pictureProblem(bad).isPresent(), is(true));
        }
    }

    @Test
    void olderSkuLinesHaveNothingToShow() {
        SkuLine line = new SkuLine(7, 10, 1, 1);
        assertThat(line.name(), is(Optional.empty()));
        assertThat(line.price(), is(Optional.empty()));
        assertThat(line.picture(), is(Optional.empty()));
        assertThat(line.title(), is("SKU 7"));
    }
}
