import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Bearer tokens for the benchmark's buyers, one per line, for wrk's Lua to send: wrk cannot sign an
 * HMAC itself, so the buyers are signed up front. HS256 JWS with the first key of
 * {@code SECKILL_IDENTITY_HMAC_KEYS} ({@code id=secret}), {@code sub} = the buyer id, {@code iss}
 * seckill, valid three hours; JDK only, so the script runs it as a source file:
 * {@code java bench/BuyerTokens.java <count> <first buyer id> <out-file>}.
 */
public class BuyerTokens {

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        int count = Integer.parseInt(args[0]);
        long first = Long.parseLong(args[1]);
        String[] key = System.getenv("SECKILL_IDENTITY_HMAC_KEYS").split(",")[0].split("=", 2);
        long exp = Instant.now().plusSeconds(3 * 3600).getEpochSecond();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
            for (long buyer = first; buyer < first + count; buyer++) {
                out.println(token(key[0], key[1], buyer, exp));
            }
        }
    }

    /** A compact HS256 JWS naming {@code buyer}. */
    static String token(String kid, String secret, long buyer, long exp) throws GeneralSecurityException {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String head = b64.encodeToString(("{\"alg\":\"HS256\",\"kid\":\"" + kid + "\"}").getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"sub\":\"" + buyer + "\",\"iss\":\"seckill\",\"exp\":" + exp + "}")
                .getBytes(StandardCharsets.UTF_8));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] signature = mac.doFinal((head + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return head + "." + claims + "." + b64.encodeToString(signature);
    }
}
