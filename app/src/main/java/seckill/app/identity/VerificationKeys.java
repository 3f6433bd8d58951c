package seckill.app.identity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;

/**
 * The keys tokens may be signed with, each bound to the algorithms its type allows: an HMAC secret
 * verifies only HS256/384/512, an RSA key only RS/PS, an EC key only the ES algorithm of its curve
 * (and a JWK's own {@code alg}, when it names one, only that). So a token cannot pick an algorithm
 * that reads a public key as an HMAC secret (the HS/RS confusion), and {@code none} has no key.
 */
final class VerificationKeys {

    static final int MIN_SECRET_LENGTH = 32;

    private record Entry(String kid, JWSVerifier verifier, JWSAlgorithm only) {
        boolean verifies(JWSAlgorithm algorithm) {
            return (only == null || only.equals(algorithm)) && verifier.supportedJWSAlgorithms().contains(algorithm);
        }
    }

    private final Map<String, Entry> byKid;
    private final List<Entry> all;

    private VerificationKeys(List<Entry> entries) {
        Map<String, Entry> byKid = new LinkedHashMap<>();
        entries.stream().filter(e -> e.kid() != null).forEach(e -> byKid.putIfAbsent(e.kid(), e));
        this.byKid = byKid;
        this.all = List.copyOf(entries);
    }

    /**
     * The HMAC secrets (each at least 32 characters) and the public keys of a JWKS (private parts
     * and keys of other types or uses are refused or skipped).
     *
     * @throws IllegalArgumentException naming the key that will not do
     */
    static VerificationKeys of(Map<String, String> hmacSecrets, JWKSet jwks) {
        List<Entry> entries = new ArrayList<>();
        hmacSecrets.forEach((kid, secret) -> {
            if (secret.length() < MIN_SECRET_LENGTH) {
                throw new IllegalArgumentException("seckill.identity.hmac-keys: the key '" + kid + "' is shorter than "
                        + MIN_SECRET_LENGTH + " characters");
            }
            try {
                entries.add(new Entry(kid, new MACVerifier(secret.getBytes(StandardCharsets.UTF_8)), null));
            } catch (JOSEException e) {
                throw new IllegalArgumentException("seckill.identity.hmac-keys: the key '" + kid + "': " + e.getMessage());
            }
        });
        if (jwks != null) {
            for (JWK key : jwks.getKeys()) {
                if (key.getKeyUse() != null && !KeyUse.SIGNATURE.equals(key.getKeyUse())) {
                    continue;
                }
                JWSAlgorithm only = key.getAlgorithm() == null ? null : JWSAlgorithm.parse(key.getAlgorithm().getName());
                try {
                    if (key instanceof RSAKey rsa) {
                        entries.add(new Entry(key.getKeyID(), new RSASSAVerifier(rsa.toPublicJWK()), only));
                    } else if (key instanceof ECKey ec) {
                        entries.add(new Entry(key.getKeyID(), new ECDSAVerifier(ec.toPublicJWK()), only));
                    } else {
                        throw new IllegalArgumentException("the JWKS key '" + key.getKeyID() + "' is of type "
                                + key.getKeyType() + "; only RSA and EC public keys are read from it");
                    }
                } catch (JOSEException e) {
                    throw new IllegalArgumentException("the JWKS key '" + key.getKeyID() + "': " + e.getMessage());
                }
            }
        }
        return new VerificationKeys(entries);
    }

    /** The verifiers that may check a token of this key id and algorithm: by id when it names one. */
    List<JWSVerifier> candidates(String kid, JWSAlgorithm algorithm, Set<String> allowed) {
        if (algorithm == null || !allowed.contains(algorithm.getName())) {
            return List.of();
        }
        if (kid != null) {
            Entry entry = byKid.get(kid);
            return entry != null && entry.verifies(algorithm) ? List.of(entry.verifier()) : List.of();
        }
        return all.stream().filter(e -> e.verifies(algorithm)).map(Entry::verifier).toList();
    }

    boolean isEmpty() {
        return all.isEmpty();
    }
}
