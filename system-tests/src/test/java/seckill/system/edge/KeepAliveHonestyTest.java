package seckill.system.edge;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;

/**
 * An answer that does not say {@code Connection: close} promises the connection stays usable: a
 * client (the JDK's, nginx's upstream pool) sends its next request on it, and a POST sent on a
 * connection the service closes without saying so is lost with no answer (nginx answers such a
 * buyer 502 and does not retry a POST). CI once saw exactly that in {@link HostileRequestsTest}
 * ("header parser received no bytes"). Here every kind of malformed request that test sends goes
 * alone on its own raw socket, followed by a plain request on the same socket, and the second must
 * be answered whenever the first answer kept the connection open.
 */
@AddConfig(key = "seckill.payment.hmac-key", value = HostileRequestsTest.PAYMENT_KEY)
// many wrong admin tokens come from one address here: the throttle's 429 is one of the answers probed
@AddConfig(key = "seckill.admin.auth.max-failures-per-address", value = "5")
class KeepAliveHonestyTest extends ServiceTest {

    private static final long SKU = 9411;

    @Test
    void everyAnswerThatKeepsTheConnectionServesTheNextRequest() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 50, 1);
        String purchases = "/api/v1/activities/" + activity + "/purchases";
        String buyer = "Bearer " + TestIdentity.token(4_711);
        Map<String, String> probes = new LinkedHashMap<>();
        for (String value : HostileRequestsTest.VALUES) {
            String v = value.length() > 20 ? value.substring(0, 20) + "…" : value;
            probes.put("purchase, value " + v, request("POST", purchases, buyer, "application/json",
                    "{\"skuId\":" + value + ",\"quantity\":" + value + ",\"requestId\":" + value + "}"));
            probes.put("purchase path, value " + v, request("POST", "/api/v1/activities/"
                    + value.replaceAll("[^0-9A-Za-z]", "9") + "/purchases", buyer, "application/json", "{\"skuId\":" + SKU + "}"));
            probes.put("token, value " + v, request("POST", "/api/v1/activities/" + activity + "/tokens", buyer,
                    "application/json", "{\"challengeId\":" + value + ",\"answer\":" + value + "}"));
            probes.put("lookup, value " + v, request("GET", "/api/v1/reservations/"
                    + URLEncoder.encode(activity + "-" + value + "-0-zz", StandardCharsets.UTF_8), buyer, null, null));
            probes.put("payment, value " + v, request("POST", "/api/v1/payments/callback", null, "application/json",
                    "{\"orderNo\":" + value + ",\"paymentId\":" + value + ",\"amount\":" + value + ",\"paidAt\":" + value + "}",
                    "X-Signature: sha256=00ff"));
            String admin = "{\"name\":" + value + ",\"startsAt\":" + value + ",\"endsAt\":\"2099-01-01T00:00:00Z\","
                    + "\"skus\":[{\"skuId\":" + value + ",\"stock\":" + value + "}]}";
            probes.put("admin, right token, value " + v, request("POST", "/api/v1/admin/activities",
                    "Bearer " + SaleFixture.ADMIN_TOKEN, "application/json", admin, "Idempotency-Key: k-" + v.hashCode()));
            probes.put("admin, wrong token, value " + v, request("POST", "/api/v1/admin/activities",
                    "Bearer " + value, "application/json", admin, "Idempotency-Key: w-" + v.hashCode()));
        }
        for (String method : List.of("PUT", "DELETE", "PATCH", "GET")) {
            probes.put("purchase, text/plain " + method, request(method, purchases, buyer, "text/plain", "skuId=1"));
        }
        probes.put("purchase, no buyer", request("POST", purchases, null, "application/json",
                "{\"skuId\":" + SKU + ",\"quantity\":1,\"requestId\":\"h1\"}"));
        probes.put("purchase, garbage body", request("POST", purchases, buyer, "application/json", "{]x:\u0001"));
        probes.put("purchase, forged headers", request("POST", purchases, buyer, "application/json",
                "{\"skuId\":" + SKU + ",\"quantity\":0}", "X-Forwarded-For: ;;; 1.2.3.4, zz", "X-Purchase-Token: !!!"));

        List<String> broken = new ArrayList<>();
        for (Map.Entry<String, String> probe : probes.entrySet()) {
            try (Socket socket = new Socket(target.getUri().getHost(), target.getUri().getPort())) {
                socket.setSoTimeout(15_000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                out.write(probe.getValue().getBytes(StandardCharsets.UTF_8));
                out.flush();
                Answer first = Answer.read(in);
                if (first == null) {
                    broken.add(probe.getKey() + ": no answer at all");
                    continue;
                }
                if (first.closes()) {
                    continue;
                }
                out.write(request("GET", "/api/v1/activities/" + activity, null, null, null).getBytes(StandardCharsets.UTF_8));
                out.flush();
                Answer second;
                try {
                    second = Answer.read(in);
                } catch (IOException e) {
                    second = null;
                }
                if (second == null) {
                    broken.add(probe.getKey() + ": answered " + first.status() + " keeping the connection, then closed it");
                }
            }
        }
        assertThat("probes " + probes.size(), broken, empty());
    }

    private static String request(String method, String path, String authorization, String contentType, String body,
                                  String... headers) {
        StringBuilder text = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\n");
        if (authorization != null) {
            text.append("Authorization: ").append(authorization).append("\r\n");
        }
        if (contentType != null) {
            text.append("Content-Type: ").append(contentType).append("\r\n");
        }
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        if (body != null) {
            text.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length).append("\r\n");
        }
        text.append("\r\n");
        if (body != null) {
            text.append(body);
        }
        return text.toString();
    }

    /** One HTTP/1.1 answer read off a raw socket: its status and whether it said it closes. */
    private record Answer(int status, boolean closes) {

        static Answer read(InputStream in) throws IOException {
            String statusLine;
            try {
                statusLine = line(in);
            } catch (SocketTimeoutException e) {
                return null;
            }
            if (statusLine == null) {
                return null;
            }
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            long length = -1;
            boolean chunked = false;
            boolean closes = false;
            for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            if (chunked) {
                for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
                     size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
                    in.readNBytes((int) size);
                    line(in);
                }
                line(in);
            } else if (length > 0) {
                in.readNBytes((int) length);
            }
            return new Answer(status, closes);
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    String text = bytes.toString(StandardCharsets.ISO_8859_1);
                    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
                }
                bytes.write(b);
            }
            return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
