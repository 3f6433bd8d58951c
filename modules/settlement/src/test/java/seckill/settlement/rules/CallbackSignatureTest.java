package seckill.settlement.rules;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

class CallbackSignatureTest {

    private static final byte[] BODY = "{\"orderNo\":\"1\"}".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-12-02T01:00:00Z");
    private final CallbackSignature signature = new CallbackSignature("k".repeat(32), Duration.ofSeconds(300));

    @Test
    void aSignatureWithinTheWindowIsValidOnEitherSide() {
        assertThat(signature.verify(BODY, signature.sign(BODY, NOW), NOW), instanceOf(CallbackSignature.Valid.class));
        assertThat(signature.verify(BODY, signature.sign(BODY, NOW.minusSeconds(300)), NOW),
                instanceOf(CallbackSignature.Valid.class));
        assertThat(signature.verify(BODY, signature.sign(BODY, NOW.plusSeconds(300)), NOW),
                instanceOf(CallbackSignature.Valid.class));
    }

    @Test
    void aTrueSignatureOutsideTheWindowIsStale() {
        assertThat(signature.verify(BODY, signature.sign(BODY, NOW.minusSeconds(301)), NOW),
                instanceOf(CallbackSignature.Stale.class));
        assertThat(signature.verify(BODY, signature.sign(BODY, NOW.plusSeconds(301)), NOW),
                instanceOf(CallbackSignature.Stale.class));
    }

    @Test
    void theTimestampAndTheBodyAreBothCovered() {
        String header = signature.sign(BODY, NOW.minusSeconds(3_600));
        String moved = header.replace("t=" + NOW.minusSeconds(3_600).getEpochSecond(), "t=" + NOW.getEpochSecond());
        assertThat(signature.verify(BODY, moved, NOW), instanceOf(CallbackSignature.Forged.class));
        assertThat(signature.verify("{}".getBytes(StandardCharsets.UTF_8), signature.sign(BODY, NOW), NOW),
                instanceOf(CallbackSignature.Forged.class));
    }

    @Test
    void oneOfSeveralEntriesMayVerifyAndTheHexIsCaseInsensitive() {
        String header = signature.sign(BODY, NOW);
        String v1 = header.substring(header.indexOf("v1=") + 3);
        String rotated = "t=" + NOW.getEpochSecond() + ",v1=" + "0".repeat(64) + ", v1=" + v1.toUpperCase();
        assertThat(signature.verify(BODY, rotated, NOW), instanceOf(CallbackSignature.Valid.class));
    }

    @Test
    void malformedHeadersAreForged() {
        String hex = signature.sign(BODY, NOW).substring(signature.sign(BODY, NOW).indexOf("v1=") + 3);
        for (String header : new String[] {null, "", hex, "sha256=" + hex, "v1=" + hex, "t=,v1=" + hex,
                "t=-5,v1=" + hex, "t=1e9,v1=" + hex, "t=9999999999999,v1=" + hex,
                "t=" + NOW.getEpochSecond() + ",t=" + NOW.getEpochSecond() + ",v1=" + hex,
                "t=" + NOW.getEpochSecond(), "t=" + NOW.getEpochSecond() + ",v1=", "garbage", "=,=",
                "t=" + NOW.getEpochSecond() + ",v1=" + hex + ",x".repeat(600)}) {
            assertThat(String.valueOf(header), signature.verify(BODY, header, NOW) instanceof CallbackSignature.Forged,
                    is(true));
        }
        assertThat(signature.verify(null, signature.sign(BODY, NOW), NOW), instanceOf(CallbackSignature.Forged.class));
    }
}
