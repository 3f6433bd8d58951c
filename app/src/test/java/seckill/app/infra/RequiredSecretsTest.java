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
}
