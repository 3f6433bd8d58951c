import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * One buyer at a time, as a browser would send them: purchases one after another over one kept-alive
 * connection, a new buyer each, at most one every {@link #PAUSE} after the previous answer, until a
 * given wall-clock time (the end of the load); writes "status seconds" per answer. Run by
 * bench/run-benchmarks.sh (compiled once) while wrk loads the service:
 * {@code java -cp classes Probe http://127.0.0.1:18080/api/v1/activities/7/purchases <end epoch ms> out.txt}.
 * The first second is not written (the probe's own start and connection).
 *
 * <p>It measures the service and must not load it: HTTP/1.1 is written and read by hand on one
 * blocking socket in this one thread. With the JDK's HttpClient (a selector thread and an executor
 * per client) and no pause, the two probes of row 8 sent hundreds of requests a second each at 64
 * connections, and the service under wrk's load answered 2.4k req/s with them against 9.5k without.
 * It replaced a curl loop before that: a process started per purchase, about 30 answers in 10 s.
 */
public class Probe {

    static final Duration PAUSE = Duration.ofMillis(20);

    public static void main(String[] args) throws IOException, java.security.GeneralSecurityException {
        String[] key = System.getenv("SECKILL_IDENTITY_HMAC_KEYS").split(",")[0].split("=", 2);
        long exp = java.time.Instant.now().plusSeconds(3 * 3600).getEpochSecond();
        URI target = URI.create(args[0]);
        long endMillis = Long.parseLong(args[1]);
        long warmUntil = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        long until = System.nanoTime() + Duration.ofMillis(endMillis - System.currentTimeMillis()).toNanos();
        Socket socket = null;
        InputStream in = null;
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
            for (long n = 0; System.nanoTime() < until; n++) {
                long user = 900_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
                // a new buyer each time, so a token of its own, signed as the service's identity key says
                String token = BuyerTokens.token(key[0], key[1], user, exp);
                byte[] body = ("{\"skuId\":1,\"quantity\":1,\"requestId\":\"p" + n + "\"}").getBytes(StandardCharsets.UTF_8);
                byte[] head = ("POST " + target.getRawPath() + " HTTP/1.1\r\nHost: " + target.getHost() + ":" + target.getPort()
                        + "\r\nContent-Type: application/json\r\nAuthorization: Bearer " + token + "\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                long start = System.nanoTime();
                int status;
                try {
                    if (socket == null) {
                        socket = new Socket();
                        socket.setTcpNoDelay(true);
                        socket.setSoTimeout(30_000);
                        socket.connect(new InetSocketAddress(target.getHost(), target.getPort()), 5_000);
                        in = new BufferedInputStream(socket.getInputStream());
                    }
                    OutputStream request = socket.getOutputStream();
                    request.write(head);
                    request.write(body);
                    request.flush();
                    status = readResponse(in);
                } catch (IOException e) {
                    status = 0;
                }
                long took = System.nanoTime() - start;
                if (status <= 0) {
                    // the connection is gone, or the server closes it after this answer: a new one next time
                    if (socket != null) {
                        socket.close();
                    }
                    socket = null;
                    status = -status;
                }
                if (start >= warmUntil) {
                    out.printf("%d %.6f%n", status, took / 1e9);
                }
                LockSupport.parkNanos(PAUSE.toNanos());
            }
        } finally {
            if (socket != null) {
                socket.close();
            }
        }
    }

    /** Reads one response; its status, or -status when the server will close the connection. */
    private static int readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
        int length = 0;
        boolean close = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String lower = header.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        in.readNBytes(length);
        return close ? -status : status;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                text.append((char) c);
            }
        }
        return text.toString();
    }
}
