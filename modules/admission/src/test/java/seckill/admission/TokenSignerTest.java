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
        String token = signer.sign(7, 42, now.plusSeconds(60), "t1");
        assertThat(signer.check(token, 7, 42, now), nullValue());
        assertThat(signer.check(token, 7, 43, now), is(TokenSigner.Refusal.OTHER_BUYER));
        assertThat(signer.check(token, 8, 42, now), is(TokenSigner.Refusal.OTHER_ACTIVITY));
        assertThat(signer.check(token, 7, 42, now.plusSeconds(60)), is(TokenSigner.Refusal.EXPIRED));
    }

    @Test
    void rotatedKeysStillVerifyAndStrangersDoNot() {
        String oldToken = new TokenSigner("old=secret-1").sign(7, 42, now.plusSeconds(60), "t1");
        assertThat(signer.check(oldToken, 7, 42, now), nullValue());
        String stranger = new TokenSigner("old=other-secret").sign(7, 42, now.plusSeconds(60), "t1");
        assertThat(signer.check(stranger, 7, 42, now), is(TokenSigner.Refusal.BAD_SIGNATURE));
        String unknownKey = new TokenSigner("gone=secret-1").sign(7, 42, now.plusSeconds(60), "t1");
        assertThat(signer.check(unknownKey, 7, 42, now), is(TokenSigner.Refusal.UNKNOWN_KEY));
        assertThat(signer.check("garbage", 7, 42, now), is(TokenSigner.Refusal.MALFORMED));
        assertThat(signer.check(null, 7, 42, now), is(TokenSigner.Refusal.MALFORMED));
    }

    @Test
    void eachTokenCarriesItsIdAndAPreviousReleasesTokenIsNamedByItsSignature() {
        String token = signer.sign(7, 42, now.plusSeconds(60), "abc123");
        assertThat(TokenSigner.claims(token), is(new TokenSigner.Claims("abc123", now.plusSeconds(60).getEpochSecond())));
        // v1, as the previous release signs it: still accepted during a rolling upgrade, named by its signature
        byte[] body = ("v1|old|7|42|" + now.plusSeconds(60).getEpochSecond()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String signed = v1Token(body, "secret-1");
        assertThat(signer.check(signed, 7, 42, now), nullValue());
        assertThat(TokenSigner.claims(signed).tokenId(), is("s" + signed.substring(signed.indexOf('.') + 1)));
    }

    private static String v1Token(byte[] body, String secret) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
            java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
            return b64.encodeToString(body) + "." + b64.encodeToString(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
