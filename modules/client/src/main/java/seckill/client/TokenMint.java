package seckill.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Signs buyer tokens with an HMAC key (HS256, the key's id in {@code kid}): what the dev sign-in and
 * the drill's simulated buyers use, as an identity provider would. A real deployment's tokens come
 * from its identity provider; the service only verifies them.
 */
public final class TokenMint {

    private final String kid;
    private final MACSigner signer;
    private final String issuer;
    private final Optional<String> audience;

    /** A mint signing with {@code secret} under {@code kid}, for tokens of this issuer (and audience). */
    public TokenMint(String kid, String secret, String issuer, Optional<String> audience) {
        this.kid = kid;
        this.issuer = issuer;
        this.audience = audience;
        try {
            this.signer = new MACSigner(secret.getBytes(StandardCharsets.UTF_8));
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the identity key '" + kid + "' cannot sign: " + e.getMessage());
        }
    }

    /**
     * A mint with the first of {@code id=secret[,…]} keys (the form of {@code seckill.identity.hmac-keys}),
     * for tokens of {@code issuer} (and {@code audience}).
     */
    public static TokenMint of(String keys, String issuer, Optional<String> audience) {
        for (String pair : keys.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] idAndSecret = pair.trim().split("=", 2);
            if (idAndSecret.length != 2 || idAndSecret[0].isBlank()) {
                throw new IllegalArgumentException("identity keys must look like id=secret[,id=secret]");
            }
            return new TokenMint(idAndSecret[0].trim(), idAndSecret[1], issuer, audience);
        }
        throw new IllegalArgumentException("no identity key in '" + keys + "'");
    }

    /** A token naming {@code buyer}, issued at {@code now}, valid for {@code ttl}. */
    public String mint(long buyer, Instant now, Duration ttl) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(Long.toString(buyer)).issuer(issuer)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(ttl)));
        audience.ifPresent(claims::audience);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).type(JOSEObjectType.JWT).build(),
                claims.build());
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
