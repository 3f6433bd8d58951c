package seckill.system.edge;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.MachineTools;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;
import seckill.system.TestIdentity;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The shipped config/nginx/nginx.conf, run by Debian's nginx in front of two instances (this test's
 * and a second JVM): a burst from one client address is answered 429 by nginx itself while buyers
 * at other addresses buy through it on both instances; the client address reaches the service in
 * X-Forwarded-For (a blocked address is refused through the edge); the page's files are cached.
 * Client addresses are distinct loopback addresses (127.0.0.0/8), bound per connection.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
@AddConfig(key = "seckill.admission.trust-forwarded-for", value = "true")
@AddConfig(key = "seckill.admission.blocked-ips", value = "127.0.0.66")
@AddConfig(key = "seckill.pictures.dir", value = EdgeTest.PICTURES)
class EdgeTest extends ServiceTest {

    /** SKU pictures both instances serve (relative to system-tests/, where Maven runs). */
    static final String PICTURES = "target/edge-test-pictures";

    private static final Path NGINX = MachineTools.NGINX;
    private static final Path CONFIG = Path.of("..", "config", "nginx", "nginx.conf");
    /** The only text of the shipped file this test changes: where the edge listens and its two instances. */
    private static final String SHIPPED_LISTEN = "listen 8000;";
    private static final String SHIPPED_FIRST_UPSTREAM = "server 127.0.0.1:8080 ";
    private static final String SHIPPED_SECOND_UPSTREAM = "server 127.0.0.1:8081 ";
    private static final Path SHIPPED_ERROR_LOG = Path.of("/var/log/nginx/seckill-error.log");

    @Inject
    DevServers devServers;

    private SecondInstance second;
    private Process nginx;

    @AfterEach
    void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            nginx.waitFor();
        }
        if (second != null) {
            second.close();
        }
    }

    @Test
    void aBurstFromOneAddressIsRefusedAtTheEdgeWhileBuyersBuyThroughBothInstances() throws Exception {
        MachineTools.requireNginx();
        second = SecondInstance.start(SecondInstance.storesOf(config, devServers), db,
                "seckill.admission.token-required=false", "seckill.admission.trust-forwarded-for=true",
                "seckill.admission.blocked-ips=127.0.0.66",
                "seckill.pictures.dir=" + Path.of(PICTURES).toAbsolutePath());
        int edge = startNginx(target.getUri().getPort(), second.base().getPort());
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), 9601, 50, 1);
        long reservedBefore = reserved(target.getUri().getPort()) + reserved(second.base().getPort());
        long firstBefore = reserved(target.getUri().getPort());

        ExecutorService pool = Executors.newFixedThreadPool(8);
        int burst = 150;
        Future<List<Answer>> flood = pool.submit(() -> {
            List<Answer> answers = new ArrayList<>();
            for (int i = 0; i < burst; i++) {
                answers.add(request("127.0.0.9", edge, "GET", "/api/v1/activities/" + activity, null, null));
            }
            return answers;
        });
        List<CompletableFuture<Answer>> buyers = new ArrayList<>();
        for (int b = 1; b <= 10; b++) {
            long buyer = activity * 100 + b;
            String address = "127.0.1." + b;
            buyers.add(CompletableFuture.supplyAsync(() -> request(address, edge, "POST",
                    "/api/v1/activities/" + activity + "/purchases", buyer,
                    "{\"skuId\":9601,\"quantity\":1,\"requestId\":\"edge-" + buyer + "\"}"), pool));
        }
        long started = System.nanoTime();
        List<Answer> flooded = flood.get();
        double seconds = (System.nanoTime() - started) / 1e9;
        long refusedAtEdge = flooded.stream().filter(a -> a.status == 429 && a.body.contains("\"limit\":\"EDGE\"")).count();
        long served = flooded.stream().filter(a -> a.status == 200).count();
        assertThat("every burst request was served or refused by nginx", refusedAtEdge + served, is((long) burst));
        // 40 at once, then 20 a second
        assertThat(served, lessThanOrEqualTo((long) Math.ceil(41 + 20 * (seconds + 1))));
        assertThat(refusedAtEdge, greaterThanOrEqualTo(burst - (long) Math.ceil(41 + 20 * (seconds + 1))));
        Answer throttled = flooded.stream().filter(a -> a.status == 429).findFirst().orElseThrow();
        assertThat(throttled.headers, containsString("Retry-After: 1"));
        assertThat(throttled.headers, containsString("application/problem+json"));

        for (CompletableFuture<Answer> buyer : buyers) {
            Answer answer = buyer.get();
            assertThat(answer.body, answer.status, is(202));
        }
        pool.shutdown();
        SaleFixture.await("ten orders", Duration.ofSeconds(20), () -> sale.orders(activity) == 10);
        long firstDelta = reserved(target.getUri().getPort()) - firstBefore;
        long total = reserved(target.getUri().getPort()) + reserved(second.base().getPort()) - reservedBefore;
        assertThat(total, is(10L));
        assertThat("both instances sold", firstDelta >= 1 && firstDelta <= 9, is(true));

        // nginx appends the client's address; the service trusts it from loopback and blocks that address
        Answer blocked = request("127.0.0.66", edge, "POST", "/api/v1/activities/" + activity + "/purchases",
                activity * 100 + 66, "{\"skuId\":9601,\"quantity\":1,\"requestId\":\"blocked\"}");
        assertThat(blocked.body, blocked.status, is(403));
        assertThat(blocked.body, containsString("BLOCKED"));

        // the page's files are cached at the edge
        request("127.0.0.1", edge, "GET", "/assets/buyer.js", null, null);
        Answer again = request("127.0.0.1", edge, "GET", "/assets/buyer.js", null, null);
        assertThat(again.status, is(200));
        assertThat(again.headers, containsString("X-Cache: HIT"));
        assertThat(request("127.0.0.1", edge, "GET", "/?activity=" + activity, null, null).body,
                containsString("<title>Flash sale</title>"));

        // and so are the SKU pictures (issue #33): the service's Cache-Control and ETag, then the edge's copy
        Files.createDirectories(Path.of(PICTURES));
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R'};
        Files.write(Path.of(PICTURES, "edge-9601.png"), png);
        Answer picture = request("127.0.0.1", edge, "GET", "/pictures/edge-9601.png", null, null);
        assertThat(picture.headers, picture.status, is(200));
        assertThat(picture.headers, containsString("Content-Type: image/png"));
        assertThat(picture.headers, containsString("Cache-Control: public, max-age=86400"));
        assertThat(picture.headers, containsString("ETag: \""));
        Answer cached = request("127.0.0.1", edge, "GET", "/pictures/edge-9601.png", null, null);
        assertThat(cached.status, is(200));
        assertThat(cached.headers, containsString("X-Cache: HIT"));
        // a file that is no picture by its first bytes is not served, whatever its name
        Files.writeString(Path.of(PICTURES, "fake.png"), "<script>alert(1)</script>");
        assertThat(request("127.0.0.1", edge, "GET", "/pictures/fake.png", null, null).status, is(404));
        assertThat(request("127.0.0.1", edge, "GET", "/pictures/..%2Fpom.xml", null, null).status, is(404));
    }

    /**
     * Issue #36, item 1, through the shipped edge: a client's own {@code X-User-Id} (and gateway
     * signature header) is stripped by nginx, so it buys nothing in anyone's name; a client with its
     * own valid token buys as itself whatever id it writes beside it. Read from the ledger.
     */
    @Test
    void aClientSentUserIdDoesNotBuyAsThatBuyerThroughTheEdge() throws Exception {
        MachineTools.requireNginx();
        int port = target.getUri().getPort();
        int edge = startNginx(port, port);
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), 9602, 50, 1);
        long victim = activity * 100 + 7;
        long attacker = activity * 100 + 8;
        String body = "{\"skuId\":9602,\"quantity\":1,\"requestId\":\"edge-forged\"}";

        Answer bare = request("127.0.2.1", edge, "POST", "/api/v1/activities/" + activity + "/purchases", null, body,
                "X-User-Id: " + victim + "\r\n");
        assertThat(bare.body, bare.status, is(401));
        assertThat(bare.body, containsString("UNAUTHENTICATED"));
        Answer withOwnToken = request("127.0.2.1", edge, "POST", "/api/v1/activities/" + activity + "/purchases",
                attacker, body, "X-User-Id: " + victim + "\r\nX-User-Signature: t=1,v1=00\r\n");
        assertThat(withOwnToken.body, withOwnToken.status, is(202));
        SaleFixture.await("the attacker's own order", Duration.ofSeconds(20), () -> sale.orders(activity) == 1);
        assertThat("no order in the victim's name", sale.count(
                "SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, victim), is(0L));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND user_id = ?", activity, attacker),
                is(1L));
    }

    /**
     * Issue #34: the ramp ({@code drill rehearse}) through the shipped edge tells nginx's 429s from the
     * service's. Every request of the ramp comes from one address, which nginx lets through at 20 a
     * second with a burst of 40: steps of 10, 27.5 and 45 a second meet its limit only in the last, and
     * the report names the edge as the first layer to shed there, with no admission 429 at all.
     */
    @Test
    void aRampThroughTheEdgeNamesTheEdgeWhereNginxStartsRefusing() throws Exception {
        MachineTools.requireNginx();
        int port = target.getUri().getPort();
        int edge = startNginx(port, port);
        Path dir = Files.createTempDirectory("ramp-edge");
        seckill.drill.api.RampOptions options = seckill.drill.api.RampOptions.parse(new String[] {
                "--url", "http://127.0.0.1:" + edge, "--target-rate", "30", "--steps", "3", "--start-fraction", "0.3333334",
                "--step-seconds", "3", "--report", dir.toString(), "--metrics", target.getUri().resolve("/metrics").toString(),
                "--p99-bound-ms", "3000", "--db-wait-bound-ms", "2000"});
        jakarta.json.JsonObject report = new seckill.drill.api.Ramp(options, SaleFixture.ADMIN_TOKEN,
                config.getOptionalValue("seckill.redis.uri", String.class),
                java.util.Optional.of(seckill.drill.api.InvariantCheck.ledgerAudit(db)), System.out).run();
        var steps = report.getJsonArray("steps");
        int firstRefused = -1;
        for (int i = 0; i < steps.size(); i++) {
            jakarta.json.JsonObject answers = steps.getJsonObject(i).getJsonObject("answers");
            assertThat(answers.getJsonNumber("429 GLOBAL").longValue() + answers.getJsonNumber("429 BUYER").longValue(),
                    is(0L));
            if (firstRefused < 0 && answers.getJsonNumber("429 EDGE").longValue() > 0) {
                firstRefused = i + 1;
            }
        }
        assertThat(report.toString(), firstRefused, is(3));
        jakarta.json.JsonObject first = report.getJsonObject("firstToGive");
        assertThat(first.getString("layer"), is("edge"));
        assertThat(first.getString("how"), is("sheds"));
        assertThat(first.getInt("step"), is(firstRefused));
    }

    /**
     * Issue #34 (docs/rehearsal.md): only the edge marks rehearsal traffic, so a client's own {@code
     * X-Seckill-Rehearsal} is stripped by the shipped nginx and never reaches an instance. Read from what an
     * upstream of the edge's (a recording HTTP server in the instances' place) received; the buyer's
     * {@code Authorization} beside it passes, as the control.
     */
    @Test
    void aClientSentRehearsalMarkNeverReachesAnInstance() throws Exception {
        MachineTools.requireNginx();
        java.util.List<com.sun.net.httpserver.Headers> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer upstream = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            received.add(exchange.getRequestHeaders());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        upstream.start();
        try {
            int edge = startNginx(upstream.getAddress().getPort(), upstream.getAddress().getPort());
            long rehearsal = seckill.redis.World.REHEARSAL_IDS_FROM + 1;
            Answer answer = request("127.0.2.3", edge, "POST", "/api/v1/activities/" + rehearsal + "/purchases", 34L,
                    "{\"skuId\":1,\"quantity\":1,\"requestId\":\"forged-mark\"}",
                    "X-Seckill-Rehearsal: a=" + rehearsal + ",t=" + Instant.now().getEpochSecond() + ",v1=" + "0".repeat(64)
                            + "\r\n");
            assertThat(answer.headers, answer.status, is(204));
            assertThat(received.size(), is(1));
            // the control passes: the buyer's bearer token as sent (its subject read back; a token made again
            // here could carry the next second's iat)
            String authorization = received.get(0).getFirst("Authorization");
            assertThat(authorization, org.hamcrest.Matchers.startsWith("Bearer "));
            String payload = new String(java.util.Base64.getUrlDecoder().decode(authorization.split("\\.")[1]),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertThat("the control passes", payload, org.hamcrest.Matchers.containsString("\"sub\":\"34\""));
            assertThat(received.get(0).containsKey("X-Seckill-Rehearsal"), is(false));
        } finally {
            upstream.stop(0);
        }
    }

    /**
     * Starts the shipped config with only its listen port and its two upstreams pointed at this test's
     * (free ports, so a run never meets a real edge's); every path stays Debian's as shipped
     * ({@code ShippedEdgeConfigTest} checks the file as it is with {@code nginx -t}). Run in the
     * foreground ({@code -g "daemon off;"}) so this test owns the process and stops it by its PID.
     */
    private int startNginx(int first, int second) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path folder = Files.createTempDirectory("seckill-nginx");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        String conf = Files.readString(CONFIG);
        conf = rewrite(conf, SHIPPED_LISTEN, "listen 127.0.0.1:" + port + ";");
        conf = rewrite(conf, SHIPPED_FIRST_UPSTREAM, "server 127.0.0.1:" + first + " ");
        conf = rewrite(conf, SHIPPED_SECOND_UPSTREAM, "server 127.0.0.1:" + second + " ");
        Path file = folder.resolve("nginx.conf");
        Files.writeString(file, conf);
        Path out = folder.resolve("out.log");
        nginx = new ProcessBuilder(NGINX.toString(), "-c", file.toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        SaleFixture.await("nginx listening", Duration.ofSeconds(10), () -> {
            if (!nginx.isAlive()) {
                throw new AssertionError("nginx exited: " + read(out) + read(SHIPPED_ERROR_LOG));
            }
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        return port;
    }

    /** Replaces one shipped line; a line the shipped file no longer has fails instead of being silently kept. */
    private static String rewrite(String conf, String shipped, String replacement) {
        if (!conf.contains(shipped)) {
            throw new AssertionError(CONFIG + " no longer contains '" + shipped + "': update EdgeTest's constants");
        }
        return conf.replace(shipped, replacement);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private long reserved(int port) {
        String metrics = new SaleFixture(java.net.URI.create("http://127.0.0.1:" + port), db).get("/metrics", null).body();
        return metrics.lines().filter(l -> l.startsWith("seckill_purchases_total{") && l.contains("outcome=\"reserved\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    record Answer(int status, String headers, String body) {
    }

    /**
     * Review of #36: the admin API went through the shipped edge to anyone with a guess at the token.
     * It is the operator's: the edge answers it only from the operator's addresses (loopback as
     * shipped), and refuses every other client before the service sees the request.
     */
    @Test
    void theAdminApiIsRefusedAtTheEdgeToClientsOutsideTheOperatorsNetwork() throws Exception {
        MachineTools.requireNginx();
        int port = target.getUri().getPort();
        int edge = startNginx(port, port);
        String auth = "Authorization: Bearer " + SaleFixture.ADMIN_TOKEN + "\r\n";
        Answer outside = request("127.0.2.1", edge, "GET", "/api/v1/admin/overview", null, null, auth);
        assertThat(outside.body, outside.status, is(403));
        Answer operator = request("127.0.0.1", edge, "GET", "/api/v1/admin/overview", null, null, auth);
        assertThat(operator.body, operator.status, is(200));
    }

    /** One HTTP/1.1 request from the given local address (a client of its own as far as nginx can tell). */
    private static Answer request(String from, int port, String method, String path, Long buyer, String body) {
        return request(from, port, method, path, buyer, body, "");
    }

    /** The same, with {@code extraHeaders} (each line ending in CRLF) as the client wrote them. */
    private static Answer request(String from, int port, String method, String path, Long buyer, String body,
                                  String extraHeaders) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: shop.example\r\n"
                    + "Connection: close\r\nContent-Length: " + payload.length + "\r\n");
            if (buyer != null) {
                head.append("Authorization: Bearer ").append(TestIdentity.token(buyer)).append("\r\n");
            }
            if (body != null) {
                head.append("Content-Type: application/json\r\n");
            }
            head.append(extraHeaders);
            OutputStream out = socket.getOutputStream();
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String headers = split < 0 ? text : text.substring(0, split);
            String rest = split < 0 ? "" : text.substring(split + 4);
            return new Answer(Integer.parseInt(headers.substring(9, 12)), headers, rest);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
