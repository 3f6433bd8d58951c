package seckill.app.infra;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;

/** The start-up rule for secrets outside dev mode, as plain logic. */
class RequiredSecretsTest {

    private static final String LONG = "x".repeat(32);

    @Test
    void longEnoughSecretsPassAndAMissingPaymentKeyIsAllowed() {
        assertThat(RequiredSecrets.problems(Optional.of(LONG), Optional.of("a=" + LONG + ", b=" + LONG),
                Optional.empty()), empty());
    }

    @Test
    void everyMissingOrShortSecretIsNamed() {
        List<String> problems = RequiredSecrets.problems(Optional.empty(), Optional.of("new=" + LONG + ",old=short"),
                Optional.of("x".repeat(31)));
        assertThat(problems, contains("seckill.admin.token is not set (set SECKILL_ADMIN_TOKEN)",
                "seckill.admission.token-keys: the key 'old' is shorter than 32 characters",
                "seckill.payment.hmac-key is shorter than 32 characters"));
        assertThat(RequiredSecrets.problems(Optional.of("short"), Optional.empty(), Optional.of(LONG)), contains(
                "seckill.admin.token is shorter than 32 characters",
                "seckill.admission.token-keys is not set (id=secret[,id=secret], set SECKILL_ADMISSION_TOKEN_KEYS)"));
    }

    @Test
    void theBuyersIdentityNeedsKeysOfItsMode() {
        assertThat(RequiredSecrets.identityProblems("bearer", Optional.of("a=" + LONG), Optional.empty(), Optional.empty()),
                empty());
        assertThat(RequiredSecrets.identityProblems("bearer", Optional.empty(), Optional.of("/etc/jwks.json"),
                Optional.empty()), empty());
        assertThat(RequiredSecrets.identityProblems("gateway", Optional.empty(), Optional.empty(), Optional.of(LONG)),
                empty());
        assertThat(RequiredSecrets.identityProblems("bearer", Optional.empty(), Optional.empty(), Optional.empty()),
                contains("seckill.identity.hmac-keys or seckill.identity.jwks-file must be set (the keys buyers' "
                        + "bearer tokens are verified with; set SECKILL_IDENTITY_HMAC_KEYS=id=secret or "
                        + "SECKILL_IDENTITY_JWKS_FILE)"));
        assertThat(RequiredSecrets.identityProblems("gateway", Optional.of("a=short"), Optional.empty(),
                Optional.of("short")), contains("seckill.identity.gateway.hmac-key is shorter than 32 characters",
                "seckill.identity.hmac-keys: the key 'a' is shorter than 32 characters"));
        assertThat(RequiredSecrets.identityProblems("header", Optional.of("a=" + LONG), Optional.empty(),
                Optional.empty()), contains("seckill.identity.mode must be bearer or gateway"));
    }

    @Test
    void theEdgesRehearsalKeyIsOptionalButLongAndItsOwn() {
        assertThat(RequiredSecrets.rehearsalProblems(Optional.empty(), Optional.of(LONG)), empty());
        assertThat(RequiredSecrets.rehearsalProblems(Optional.of("y".repeat(32)), Optional.of(LONG)), empty());
        assertThat(RequiredSecrets.rehearsalProblems(Optional.of("short"), Optional.empty()),
                contains("seckill.rehearsal.edge-key is shorter than 32 characters"));
        assertThat(RequiredSecrets.rehearsalProblems(Optional.of(LONG), Optional.of(LONG)),
                contains("seckill.rehearsal.edge-key is the gateway's key (seckill.identity.gateway.hmac-key): give "
                        + "the edge's rehearsal mark a key of its own"));
    }
}
