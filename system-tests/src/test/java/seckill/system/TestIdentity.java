package seckill.system;

import java.time.Instant;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Bearer tokens as the tests' identity provider signs them: HS256 with the test configuration's
 * identity key ({@code seckill.identity.hmac-keys=test=…} in the test microprofile-config), and
 * forged ones for the attacks.
 */
public final class TestIdentity {

    public static final String KEY_ID = "test";
    public static final String KEY = "test-identity-key-of-at-least-32-characters";
    public static final String ISSUER = "seckill";

    private TestIdentity() {
    }

    /** A valid token for the buyer, for an hour. */
    public static String token(long buyer) {
        return sign(KEY_ID, KEY, Long.toString(buyer), ISSUER, Instant.now().plusSeconds(3600));
    }

    /** A token signed with {@code key} under key id {@code kid}, with these claims. */
    public static String sign(String kid, String key, String subject, String issuer, Instant expires) {
        try {
            JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject).issuer(issuer)
                    .issueTime(Date.from(Instant.now().minusSeconds(1)));
            if (expires != null) {
                claims.expirationTime(Date.from(expires));
            }
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(), claims.build());
            jwt.sign(new MACSigner(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The gateway mode's proof: {@code t=<epoch seconds>,v1=<hex HMAC-SHA256 of "<userId>.<t>">}. */
    public static String gatewaySignature(String key, long buyer, long epochSeconds) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] sum = mac.doFinal((buyer + "." + epochSeconds).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "t=" + epochSeconds + ",v1=" + java.util.HexFormat.of().formatHex(sum);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
