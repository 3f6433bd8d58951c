import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One buyer at a time, as a browser would send them: purchases one after another over one kept-alive
 * connection, a new buyer each, until a given wall-clock time (the end of the load); writes
 * "status seconds" per answer. Run by bench/run-benchmarks.sh as a single-file program while wrk
 * loads the service:
 * {@code java bench/Probe.java http://127.0.0.1:18080/api/v1/activities/7/purchases <end epoch ms> out.txt}.
 * The first second is not written (the probe's own JIT and connection).
 *
 * <p>It replaced a curl loop: a process started per purchase, a new connection each, about 30
 * answers in 10 s on two loaded cores, so its "p99" was the slowest of 30 and mostly measured
 * curl's own start and scheduling.
 */
public class Probe {

    public static void main(String[] args) throws IOException, InterruptedException {
        URI target = URI.create(args[0]);
        long endMillis = Long.parseLong(args[1]);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        long warmUntil = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        long until = System.nanoTime() + Duration.ofMillis(endMillis - System.currentTimeMillis()).toNanos();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
            for (long n = 0; System.nanoTime() < until; n++) {
                long user = 900_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
                HttpRequest request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json").header("X-User-Id", Long.toString(user))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"skuId\":1,\"quantity\":1,\"requestId\":\"p" + n + "\"}"))
                        .build();
                long start = System.nanoTime();
                int status;
                try {
                    status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (IOException e) {
                    status = 0;
                }
                long took = System.nanoTime() - start;
                if (start >= warmUntil) {
                    out.printf("%d %.6f%n", status, took / 1e9);
                }
            }
        }
    }
}
