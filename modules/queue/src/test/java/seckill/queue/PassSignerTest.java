package seckill.queue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/** Passes and tickets: bound to buyer and activity, expiring, signed; keys rotate. Plain logic. */
class PassSignerTest {

    private static final String KEY = "new=queue-pass-key-of-at-least-32-characters,old=an-older-queue-pass-key-32-chars!";
    private final PassSigner signer = new PassSigner(KEY);

    @Test
    void aPassIsGoodOnlyForItsBuyerAndActivityUntilItExpires() {
        String pass = signer.pass(7, 1001, 3, 10_000);
        assertThat(signer.passRefusal(pass, 7, 1001, 9_999), is(Optional.empty()));
        assertThat(signer.passRefusal(pass, 7, 1002, 9_999), is(Optional.of("OTHER_BUYER")));
        assertThat(signer.passRefusal(pass, 8, 1001, 9_999), is(Optional.of("OTHER_ACTIVITY")));
        assertThat(signer.passRefusal(pass, 7, 1001, 10_000), is(Optional.of("EXPIRED")));
        assertThat(signer.passRefusal(null, 7, 1001, 0), is(Optional.of("MISSING")));
        assertThat(signer.passRefusal("nonsense", 7, 1001, 0), is(Optional.of("MALFORMED")));
        String tampered = pass.substring(0, pass.length() - 2) + (pass.endsWith("A") ? "BB" : "AA");
        assertThat(signer.passRefusal(tampered, 7, 1001, 0), is(Optional.of("BAD_SIGNATURE")));
        // the same place signed again is the same text: asking again shows the same pass
        assertThat(signer.pass(7, 1001, 3, 10_000), is(pass));
    }

    @Test
    void aTicketNamesItsPlaceForItsBuyerOnlyAndIsNoPass() {
        String ticket = signer.ticket(7, 1001, 12);
        assertThat(signer.ticketPlace(ticket, 7, 1001), is(12L));
        assertThat(signer.ticketPlace(ticket, 7, 1002), is(-1L));
        assertThat(signer.ticketPlace(ticket, 8, 1001), is(-1L));
        assertThat(signer.passRefusal(ticket, 7, 1001, 0), is(Optional.of("MALFORMED")));
        assertThat(signer.ticketPlace(signer.pass(7, 1001, 12, Long.MAX_VALUE), 7, 1001), is(-1L));
    }

    @Test
    void keysRotateAndAnUnknownKeyIsRefused() {
        PassSigner old = new PassSigner("old=an-older-queue-pass-key-32-chars!");
        String byOld = old.pass(7, 1001, 3, 10_000);
        assertThat(signer.passRefusal(byOld, 7, 1001, 0), is(Optional.empty()));
        assertThat(old.passRefusal(signer.pass(7, 1001, 3, 10_000), 7, 1001, 0), is(Optional.of("UNKNOWN_KEY")));
        assertThat(byOld, not(signer.pass(7, 1001, 3, 10_000)));
        assertThat(PassSigner.unconfigured().passRefusal(byOld, 7, 1001, 0), is(Optional.of("NOT_CONFIGURED")));
    }
}
