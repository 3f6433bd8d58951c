package seckill.admission;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

class TokenSignerTest {

    private final Instant now = Instant.parse("2026-11-29T10:00:00Z");
    private final TokenSigner signer = new TokenSigner("new=secret-2,old=secret-1");

    @Test
    void aTokenVerifiesForItsBuyerAndActivityUntilItExpires() {
        String token = signer.sign(7, 42, now.plusSeconds(60));
        assertThat(signer.check(token, 7, 42, now), nullValue());
        assertThat(signer.check(token, 7, 43, now), is(TokenSigner.Refusal.OTHER_BUYER));
        assertThat(signer.check(token, 8, 42, now), is(TokenSigner.Refusal.OTHER_ACTIVITY));
        assertThat(signer.check(token, 7, 42, now.plusSeconds(60)), is(TokenSigner.Refusal.EXPIRED));
    }

    @Test
    void rotatedKeysStillVerifyAndStrangersDoNot() {
        String oldToken = new TokenSigner("old=secret-1").sign(7, 42, now.plusSeconds(60));
        assertThat(signer.check(oldToken, 7, 42, now), nullValue());
        String stranger = new TokenSigner("old=other-secret").sign(7, 42, now.plusSeconds(60));
        assertThat(signer.check(stranger, 7, 42, now), is(TokenSigner.Refusal.BAD_SIGNATURE));
        String unknownKey = new TokenSigner("gone=secret-1").sign(7, 42, now.plusSeconds(60));
        assertThat(signer.check(unknownKey, 7, 42, now), is(TokenSigner.Refusal.UNKNOWN_KEY));
        assertThat(signer.check("garbage", 7, 42, now), is(TokenSigner.Refusal.MALFORMED));
        assertThat(signer.check(null, 7, 42, now), is(TokenSigner.Refusal.MALFORMED));
    }
}
