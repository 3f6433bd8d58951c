package seckill.drill.chaos;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import seckill.client.PaymentSigner;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/** Each forged callback is forged the way its name says (pure logic: the signatures are recomputed here). */
class SignedPaymentsTest {

    private static final String KEY = "the-run-payment-key-0123456789abcdef";
    private static final Instant NOW = Instant.parse("2026-12-02T14:00:00Z");
    private static final String ORDER = "263360253888966275637248";
    private static final String UNKNOWN = "YYYY00000000000000000007";

    private final SignedPayments payments = new SignedPayments(KEY);
    private final PaymentSigner signer = new PaymentSigner(KEY);

    private SignedPayments.Callback forged(String how) {
        return payments.forged(how, ORDER, UNKNOWN, "chaos-forged-1-7", NOW);
    }

    @Test
    void everyForgeryIsWhatItsNameSays() {
        SignedPayments.Callback genuine = payments.of(ORDER, "chaos-forged-1-7", NOW);

        SignedPayments.Callback bad = forged("bad-signature");
        assertThat(bad.body(), is(genuine.body()));
        assertThat(bad.signature(), is(not(genuine.signature())));

        assertThat(forged("no-signature").signature(), is(nullValue()));
        assertThat(forged("no-signature").body(), is(genuine.body()));

        // a genuine signature over the true body, sent with another body
        for (String how : new String[] {"replayed-amount", "replayed-order"}) {
            SignedPayments.Callback replay = forged(how);
            assertThat(replay.signature(), is(genuine.signature()));
            assertThat(replay.body(), is(not(genuine.body())));
        }
        assertThat(forged("replayed-amount").body(), containsString("\"amount\":0.01,"));
        assertThat(forged("replayed-order").body(), containsString("\"orderNo\":\"" + UNKNOWN + "\""));

        // a true signature over what the service must refuse all the same
        for (String how : new String[] {"wrong-amount", "wrong-currency", "unknown-order"}) {
            SignedPayments.Callback signed = forged(how);
            assertThat(how, signed.signature(), is(signer.sign(signed.body(), NOW)));
            assertThat(how, signed.body(), is(not(genuine.body())));
        }
        assertThat(forged("wrong-amount").body(), containsString("\"amount\":0.99,"));
        assertThat(forged("wrong-currency").body(), containsString("\"currency\":\"USD\""));
        assertThat(forged("unknown-order").body(), containsString("\"orderNo\":\"" + UNKNOWN + "\""));

        for (String how : ChaosPlan.FORGERIES) {
            assertThat(SignedPayments.sent(forged(how)), containsString(forged(how).body() + "\nX-Signature: "));
        }
    }
}
