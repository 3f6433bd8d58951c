package seckill.admission;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * A v1 purchase token (minted by an older release during a rolling upgrade) has one spend record
 * however its signature is spelled: the decoder accepts several spellings of the same bytes.
 */
class V1TokenSpellingsTest {

    @Test
    void oneV1TokenHasOneSpendId() throws Exception {
        Instant now = Instant.parse("2026-12-02T01:00:00Z");
        byte[] body = ("v1|k|7|42|" + now.plusSeconds(300).getEpochSecond()).getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("secret-of-at-least-32-characters-x".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String payload = b64.encodeToString(body);
        String sig = b64.encodeToString(mac.doFinal(body));
        TokenSigner signer = new TokenSigner("k=secret-of-at-least-32-characters-x");
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        Set<String> spendIds = new LinkedHashSet<>();
        for (String pad : new String[] {"", "="}) {
            for (char last : alphabet.toCharArray()) {
                String token = payload + "." + sig.substring(0, sig.length() - 1) + last + pad;
                if (signer.check(token, 7, 42, now) == null) {
                    spendIds.add(TokenSigner.claims(token).tokenId());
                }
            }
        }
        assertThat(signer.check(payload + "." + sig, 7, 42, now), is(nullValue()));
        assertThat("one token, one spend record", spendIds.size(), is(1));
    }
}
