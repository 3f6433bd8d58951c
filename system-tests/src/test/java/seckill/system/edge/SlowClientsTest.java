package seckill.system.edge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Slow and idle connections from outside (issue #36 item 3: 19,812 connections trickling a header
 * line every 30 s exhausted the process' files, Helidon's listener died on the failed accept and the
 * port never listened again). An instance runs in its own JVM under {@code prlimit --nofile=1024}, so
 * a flood of 1,200 raw sockets is more than its files allow; each sends a purchase's request line and
 * headers but never finishes them, trickling a header line a second. A connection that sends nothing
 * and one that stops inside its headers are closed within their bounds; through the flood a normal
 * purchase is answered 202 and is an order in the ledger, the port still listens, and the listener
 * never logged that it was terminating.
 */
class SlowClientsTest extends ServiceTest {

    private static final long SKU = 9501;
    private static final int OPEN_FILES = 1_024;
    private static final int FLOOD = 1_200;
    private static final long BUYER = 95_001;

    @Inject
    DevServers devServers;

    @Test
    void aSlowFloodNeitherStopsTheListenerNorKeepsABuyerOut() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 10, 1);
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        try (SecondInstance second = SecondInstance.startWithOpenFiles(OPEN_FILES, stores, db,
                "seckill.admission.token-required=false",
                "seckill.http.header-timeout-millis=2000",
                "server.idle-connection-timeout=PT3S",
                "server.idle-connection-period=PT1S")) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", second.base().getPort());
            String purchaseLine = "POST /api/v1/activities/" + activity + "/purchases HTTP/1.1\r\n";

            // a connection that never says anything is idle: closed after the idle bound (3 s + the 1 s check)
            boolean silentClosed;
            try (Socket silent = new Socket()) {
                silent.connect(address, 2_000);
                silentClosed = closedWithin(silent, Duration.ofSeconds(10));
            }
            // one that stops inside its headers is closed once the header deadline (2 s) has passed
            boolean stalledClosed;
            try (Socket stalled = new Socket()) {
                stalled.connect(address, 2_000);
                write(stalled, purchaseLine + buyerHeaderLines(BUYER));
                stalledClosed = closedWithin(stalled, Duration.ofSeconds(6));
            }

            List<Socket> flood = new CopyOnWriteArrayList<>();
            AtomicInteger refused = new AtomicInteger();
            AtomicBoolean trickling = new AtomicBoolean(true);
            Thread trickler = Thread.ofVirtual().start(() -> {
                while (trickling.get()) {
                    for (Socket socket : flood) {
                        try {
                            write(socket, "X-Slow: 1\r\n");
                        } catch (IOException closedByTheServer) {
                            flood.remove(socket);
                        }
                    }
                    sleepQuietly(1_000);
                }
            });
            try {
                for (int i = 0; i < FLOOD; i++) {
                    Socket socket = new Socket();
                    try {
                        socket.connect(address, 1_000);
                        write(socket, purchaseLine + buyerHeaderLines(BUYER + 1 + i));
                        flood.add(socket);
                    } catch (ConnectException | SocketTimeoutException e) {
                        refused.incrementAndGet();
                        socket.close();
                    } catch (IOException e) {
                        socket.close();
                    }
                }
                int held = flood.size();
                assertThat("the flood holds connections open", held, greaterThan(100));

                // through the flood, a buyer's purchase is served (it may wait its turn for a connection)
                long started = System.nanoTime();
                SaleFixture buyer = new SaleFixture(second.base(), db);
                String outcome = "no answer";
                while (System.nanoTime() - started < Duration.ofSeconds(45).toNanos()) {
                    try {
                        HttpResponse<String> answer = buyer.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                                        second.base().resolve("/api/v1/activities/" + activity + "/purchases"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"skuId\":" + SKU + ",\"quantity\":1,\"requestId\":\"through-the-flood\"}")),
                                BUYER));
                        outcome = Integer.toString(answer.statusCode());
                        if (answer.statusCode() == 202 || answer.statusCode() == 200) {
                            break;
                        }
                    } catch (RuntimeException noAnswer) {
                        outcome = "no answer: " + noAnswer.getCause();
                    }
                    sleepQuietly(500);
                }
                long waitedMillis = (System.nanoTime() - started) / 1_000_000;
                String log = second.log();
                String seen = "silent connection closed: %s; stalled headers closed: %s; %d of %d flood sockets held, %d refused; purchase: %s after %d ms; listener terminated: %s"
                        .formatted(silentClosed, stalledClosed, held, FLOOD, refused.get(), outcome, waitedMillis,
                                log.contains("this server socket is terminating now"));
                System.out.println("slow flood: " + seen);
                assertThat(seen, silentClosed && stalledClosed && (outcome.equals("202") || outcome.equals("200")), is(true));
            } finally {
                trickling.set(false);
                trickler.join();
                for (Socket socket : flood) {
                    socket.close();
                }
            }
            SaleFixture.await("the reservation is an order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1L);

            // the port still listens, and the listener never gave up
            try (Socket probe = new Socket()) {
                probe.connect(address, 2_000);
            }
            assertThat(second.log(), not(containsString("this server socket is terminating now")));
            assertThat(second.log(), not(containsString("Too many open files")));
            // a client closing its connection inside its headers writes no stack trace into the log
            assertThat(second.log(), not(containsString("\tat ")));
        }
    }

    /**
     * The header lines a buyer's request carries after its request line: the one place a raw-socket
     * request says who the buyer is (the identity scheme is written in {@link SaleFixture#asBuyer}).
     */
    private static String buyerHeaderLines(long buyer) {
        return "Host: 127.0.0.1\r\nContent-Type: application/json\r\nX-User-Id: " + buyer + "\r\n";
    }

    private static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Whether the server closes {@code socket} (a read sees its end or a reset) within {@code bound}. */
    private static boolean closedWithin(Socket socket, Duration bound) throws IOException {
        socket.setSoTimeout((int) bound.toMillis());
        InputStream in = socket.getInputStream();
        try {
            while (in.read() >= 0) {
                // an answer (e.g. 408) is fine as long as the connection ends
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
