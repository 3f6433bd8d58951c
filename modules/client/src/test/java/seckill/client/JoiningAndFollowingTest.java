package seckill.client;

import java.io.IOException;
import java.io.OutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Hostile review of the join-and-follow door (issue #33, s50-qattack): {@link QueueEvents#joinAndFollow} and
 * {@link Buying#buyAndAwaitOrder} against a scripted HTTP server answering {@code POST …/queue/events} the ways
 * a service, a proxy or a second instance may: a refusal for good, a refusal for now with its Retry-After (also as
 * an HTTP date, which RFC 9110 allows), a stream dropped before or after its first event, the queue switched off.
 */
class JoiningAndFollowingTest {

    private static final String PLACE = "{\"activityId\":9,\"state\":\"WAITING\",\"place\":5,\"position\":2,"
            + "\"estimatedWaitSeconds\":1,\"waiting\":3,\"called\":0,\"events\":\"/e\",\"ticket\":\"t-5\"}";
    private static final String TURN = "{\"activityId\":9,\"state\":\"YOUR_TURN\",\"place\":5,\"position\":0,"
            + "\"estimatedWaitSeconds\":0,\"waiting\":3,\"called\":5,\"events\":\"/e\",\"ticket\":\"t-5\","
            + "\"pass\":\"p-5\"}";

    /** One scripted answer per request, in order; each request is recorded as "METHOD ticket last-event-id". */
    private final BlockingDeque<Answer> script = new LinkedBlockingDeque<>();
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private ServerSocket server;
    private QueueEvents events;

    interface Answer {
        void answer(OutputStream out) throws IOException;
    }

    /** A bare HTTP/1.1 server (java.net only): one request a connection, answered by the script, then closed. */
    @BeforeEach
    void serve() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                            StandardCharsets.ISO_8859_1));
                    String method = in.readLine().split(" ")[0];
                    String ticket = null;
                    String last = null;
                    long length = 0;
                    for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                        String name = line.substring(0, line.indexOf(':')).trim().toLowerCase();
                        String value = line.substring(line.indexOf(':') + 1).trim();
                        switch (name) {
                            case "x-queue-ticket" -> ticket = value;
                            case "last-event-id" -> last = value;
                            case "content-length" -> length = Long.parseLong(value);
                            default -> { }
                        }
                    }
                    in.skip(length);
                    requests.add(method + " " + ticket + " " + last);
                    Answer next = script.pollFirst();
                    OutputStream out = socket.getOutputStream();
                    if (next == null) {
                        problem(out, 500, "NO_SCRIPT", null);
                    } else {
                        next.answer(out);
                    }
                    out.flush();
                } catch (IOException | RuntimeException closed) {
                    // the test ended, or the client left
                }
            }
        });
        events = new QueueEvents(URI.create("http://127.0.0.1:" + server.getLocalPort()), null, Clock.systemUTC());
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void aJoinRefusedForGoodIsThrownAfterOneRequest() {
        script.add(out -> problem(out, 410, "SOLD_OUT", null));
        assertThrows(SeckillProblem.SoldOut.class, () -> events.joinAndFollow(9, 77, null,
                Instant.now().plusSeconds(10), event -> true));
        assertThat(requests.size(), is(1));
    }

    @Test
    void aJoinRefusedForNowIsSentAgainAfterItsRetryAfterInSecondsOrAsADate() throws Exception {
        script.add(out -> problem(out, 429, "TOO_MANY_STREAMS", "1"));
        // RFC 9110 lets Retry-After be an HTTP date (proxies and CDNs send it so): it must not fail the client
        script.add(out -> problem(out, 503, "QUEUE_UNAVAILABLE",
                DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.now().plusSeconds(1).atZone(ZoneOffset.UTC))));
        script.add(out -> stream(out, event("1.0.5", TURN)));
        long start = System.nanoTime();
        QueueEvents.Event turn = events.joinAndFollow(9, 77, null, Instant.now().plusSeconds(20),
                event -> !(event instanceof QueueEvents.PlaceChanged changed
                        && changed.place().state().equals("YOUR_TURN")));
        assertThat(((QueueEvents.PlaceChanged) turn).place().pass(), is("p-5"));
        assertThat(requests, contains("POST null null", "POST null null", "POST null null"));
        assertThat("waited for the Retry-After", Duration.ofNanos(System.nanoTime() - start).toMillis() >= 900,
                is(true));
    }

    @Test
    void aStreamDroppedBeforeItsFirstEventJoinsAgainAndAfterItFollowsWithTheTicket() throws Exception {
        // the join's answer lost on its way (nothing but the headers came): joining again gives the same place
        script.add(out -> stream(out, ": waiting line\n\n"));
        // joined: the first event, then the stream ends (a proxy, a restart)
        script.add(out -> stream(out, event("0.1.2", PLACE)));
        // followed again by GET with the ticket and the last id, never joined again
        script.add(out -> stream(out, event("1.0.5", TURN)));
        QueueEvents.Event turn = events.joinAndFollow(9, 77, null, Instant.now().plusSeconds(20),
                event -> !(event instanceof QueueEvents.PlaceChanged changed
                        && changed.place().state().equals("YOUR_TURN")));
        assertThat(turn.id(), is("1.0.5"));
        assertThat(requests, contains("POST null null", "POST null null", "GET t-5 0.1.2"));
    }

    /**
     * The page answers a join refused {@code 409 QUEUE_OFF} by buying directly (buyer.js queueOff); the typed client
     * threw the refusal at its caller, a buyer who wanted to buy, when the queue was switched off between the
     * purchase's {@code 403 QUEUE_PASS_REQUIRED} and the join (or when a second instance had not yet seen the switch).
     * Fails before the fix: SeckillProblem 409 QUEUE_OFF thrown out of buyAndAwaitOrder.
     */
    @Test
    void aJoinRefusedBecauseTheQueueIsOffBuysDirectlyAfterAPause() throws Exception {
        script.add(out -> problem(out, 409, "QUEUE_OFF", null));
        List<String> purchases = new ArrayList<>();
        List<Duration> waits = new ArrayList<>();
        SeckillApi api = (SeckillApi) java.lang.reflect.Proxy.newProxyInstance(SeckillApi.class.getClassLoader(),
                new Class<?>[] {SeckillApi.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "purchase" -> {
                        purchases.add(method.getName());
                        if (purchases.size() == 1) {
                            throw SeckillProblem.typed(new SeckillProblem(403, "QUEUE_PASS_REQUIRED", "scripted",
                                    Optional.empty(), Map.of()));
                        }
                        yield new Reservation("9-3-0-1ab", "QUEUED");
                    }
                    case "reservation" -> new ReservationView("9-3-0-1ab", "ORDERED", 3L, null, null, null, null,
                            null, null, null);
                    default -> throw new AssertionError("unexpected " + method.getName());
                });
        Buying buying = new Buying(api, events, Clock.systemUTC(), waits::add);
        ReservationView view = buying.buyAndAwaitOrder(9, 77, null, new PurchaseRequest(3, 1, "r-77"),
                Instant.now().plusSeconds(20));
        assertThat(view.status(), is("ORDERED"));
        assertThat("bought again, directly", purchases.size(), is(2));
        assertThat("paused before buying again (two instances may disagree a moment)", waits.isEmpty(), is(false));
    }

    /**
     * Buying's promise, "a reservation that exists is never reported as a loss": a join refused {@code 410 SOLD_OUT}
     * (the line closed, and no place of this buyer in it: an earlier call bought and its answer was lost, or Redis
     * lost the place) was thrown as SoldOut without looking at what the buyer holds. Fails before the fix: SoldOut.
     */
    @Test
    void aJoinRefusedSoldOutLooksUpWhatTheBuyerHoldsBeforeReportingALoss() throws Exception {
        script.add(out -> problem(out, 410, "SOLD_OUT", null));
        SeckillApi api = (SeckillApi) java.lang.reflect.Proxy.newProxyInstance(SeckillApi.class.getClassLoader(),
                new Class<?>[] {SeckillApi.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "purchase" -> throw SeckillProblem.typed(new SeckillProblem(403, "QUEUE_PASS_REQUIRED",
                            "scripted", Optional.empty(), Map.of()));
                    case "reservations" -> new BuyerReservations(List.of(new ReservationView("9-3-0-1ab", "QUEUED",
                            3L, null, null, null, null, null, null, null)));
                    case "reservation" -> new ReservationView("9-3-0-1ab", "ORDERED", 3L, null, "o-1", null, null,
                            null, null, null);
                    default -> throw new AssertionError("unexpected " + method.getName());
                });
        Buying buying = new Buying(api, events, Clock.systemUTC(), duration -> { });
        ReservationView view = buying.buyAndAwaitOrder(9, 77, null, new PurchaseRequest(3, 1, "r-77"),
                Instant.now().plusSeconds(20));
        assertThat(view.status(), is("ORDERED"));
        assertThat(view.orderNo(), is("o-1"));
    }

    private static String event(String id, String data) {
        return "id: " + id + "\nevent: place\nretry: 100\ndata: " + data + "\n\n";
    }

    private static void stream(OutputStream out, String body) throws IOException {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + body)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static void problem(OutputStream out, int status, String code, String retryAfter) throws IOException {
        byte[] body = ("{\"status\":" + status + ",\"code\":\"" + code + "\",\"detail\":\"scripted\"}")
                .getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " Scripted\r\nContent-Type: application/problem+json\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n" + (retryAfter == null ? "" : "Retry-After: " + retryAfter
                + "\r\n") + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
    }
}
