package seckill.bench.api;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.server.Server;
import jakarta.enterprise.inject.spi.CDI;
import org.eclipse.microprofile.config.ConfigProvider;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.LedgerBenchmark;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.OrderingSwitch;
import seckill.ledger.hooks.WorkerHooks;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.Preheating;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Reserving;

/**
 * {@code java -jar seckill.jar bench-settle [reservations] [one-by-one reservations]}: queues
 * reservations in the stream with the workers stopped, starts them and times how long MySQL takes
 * to hold every order; once batched, once one event per transaction; then writes the same rows
 * directly (the ledger module's {@link LedgerBenchmark}) in the same batch size and thread count,
 * the database's own ceiling. Everything it asks of the ledger and of Redis goes through the
 * modules' apis; the only SQL it sends itself is about the database server (resting InnoDB).
 */
public final class SettlementBench {

    private static final long SKU = 1;

    private final Reserving reserving;
    private final Preheating preheating;
    private final OrderingSwitch ordering;
    private final WorkerHooks workers;
    private final ActivityCatalog catalog;
    private final LedgerBenchmark ledger;
    private final DbClient db;
    private final long keysOutliveEndSeconds;
    private final PrintStream out;

    SettlementBench(Reserving reserving, Preheating preheating, OrderingSwitch ordering, WorkerHooks workers,
                    ActivityCatalog catalog, LedgerBenchmark ledger, DbClient db, long keysOutliveEndSeconds, PrintStream out) {
        this.reserving = reserving;
        this.preheating = preheating;
        this.ordering = ordering;
        this.workers = workers;
        this.catalog = catalog;
        this.ledger = ledger;
        this.db = db;
        this.keysOutliveEndSeconds = keysOutliveEndSeconds;
        this.out = out;
    }

    public static int run(String[] args) {
        int batched = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int oneByOne = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        System.setProperty("server.port", "0");
        System.setProperty("seckill.ordering.enabled", "false");
        Server server = Server.builder().build().start();
        try {
            var cdi = CDI.current();
            var config = ConfigProvider.getConfig();
            SettlementBench bench = new SettlementBench(cdi.select(Reserving.class).get(), cdi.select(Preheating.class).get(),
                    cdi.select(OrderingSwitch.class).get(), cdi.select(WorkerHooks.class).get(),
                    cdi.select(ActivityCatalog.class).get(),
                    cdi.select(LedgerBenchmark.class).get(), cdi.select(DbClient.class).get(),
                    config.getOptionalValue("seckill.reservation.keys-outlive-end-seconds", Long.class).orElse(259_200L),
                    System.out);
            int batchSize = config.getOptionalValue("seckill.ordering.batch-size", Integer.class).orElse(100);
            int workers = config.getOptionalValue("seckill.ordering.workers", Integer.class).orElse(2);
            // warmed first, as every HTTP row is: the measured run should not pay for the JIT compiling the
            // ordering path (a cold first run spent a second of CPU in the compiler on these two cores)
            bench.throughStream(Math.max(1, batched / 5), batchSize, "warm-up, batches of " + batchSize);
            double service = bench.throughStream(batched, batchSize, "stream, batches of " + batchSize);
            double single = bench.throughStream(oneByOne, 1, "stream, one event per transaction");
            double ceiling = bench.plainSql(batched, batchSize, workers);
            bench.out.printf("RESULT settle batched=%.0f onebyone=%.0f ceiling=%.0f seconds100k=%.2f%n", service, single,
                    ceiling, batched / service);
            return 0;
        } catch (Exception e) {
            e.printStackTrace();
            return 1;
        } finally {
            server.stop();
        }
    }

    /** Orders per second from queued reservations to committed orders. */
    double throughStream(int count, int batchSize, String label) throws Exception {
        ordering.pause();
        Activity activity = launch(count);
        long firstUser = activity.id() * 100_000_000L;
        Instant enqueueStart = Instant.now();
        AtomicLong reserved = new AtomicLong();
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            List<Future<?>> tasks = new ArrayList<>();
            int per = (count + 31) / 32;
            for (int t = 0; t < 32; t++) {
                int from = t * per;
                int to = Math.min(count, from + per);
                tasks.add(pool.submit(() -> {
                    for (int i = from; i < to; i++) {
                        ReservationOutcome outcome = reserving.reserve(new ReserveStock(activity.id(), SKU, 1,
                                firstUser + i, 1, "b" + i));
                        if (outcome instanceof ReservationOutcome.Reserved) {
                            reserved.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        }
        double enqueueSeconds = Duration.between(enqueueStart, Instant.now()).toMillis() / 1000.0;
        out.printf("%s: queued %d reservations in %.2f s (%.0f/s, one script call each from 32 threads)%n", label,
                reserved.get(), enqueueSeconds, reserved.get() / enqueueSeconds);
        workers.batchSize(batchSize);
        letDatabaseRest();
        Instant start = Instant.now();
        ordering.resume();
        // the ledger's guard row says how many units the committed orders took: one primary-key read.
        // (Counting the orders themselves scanned a growing index every 50 ms, on the very database
        // being measured; the plain-SQL ceiling below carries no such load.)
        long total = count;
        while (total - ledger.available(activity.id(), SKU) < reserved.get()) {
            Thread.sleep(50);
            if (Duration.between(start, Instant.now()).toMinutes() >= 10) {
                throw new IllegalStateException("settlement did not finish in 10 minutes");
            }
        }
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        if (ledger.orders(activity.id()) != reserved.get()) {
            throw new IllegalStateException("the guard says every unit is ordered, the orders table disagrees");
        }
        double rate = reserved.get() / seconds;
        out.printf("%s: %d orders in %.2f s = %.0f orders/s%n", label, reserved.get(), seconds, rate);
        ordering.pause();
        return rate;
    }

    /**
     * The database's own ceiling for the same rows: the workers' own multi-row inserts and conditional
     * update per transaction, from the same number of threads, with no stream, no Redis and no checks.
     */
    double plainSql(int count, int batchSize, int threads) throws Exception {
        Activity activity = launch(count);
        letDatabaseRest();
        long firstUser = activity.id() * 100_000_000L;
        Instant start = Instant.now();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> tasks = new ArrayList<>();
            int per = (count + threads - 1) / threads;
            for (int t = 0; t < threads; t++) {
                int from = t * per;
                int to = Math.min(count, from + per);
                tasks.add(pool.submit(() -> {
                    for (int i = from; i < to; i += batchSize) {
                        ledger.writeDirectly(activity.id(), SKU, firstUser, i, Math.min(to, i + batchSize), Instant.now());
                    }
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        }
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        double rate = count / seconds;
        out.printf("plain SQL, batches of %d from %d threads: %d rows in %.2f s = %.0f orders/s%n", batchSize, threads,
                count, seconds, rate);
        return rate;
    }

    /**
     * Lets InnoDB write out the pages earlier phases (and earlier benchmark rows) left dirty, so every
     * measured phase starts from the same database state. Otherwise whichever phase comes next pays
     * for them: with the server's small redo log InnoDB must flush them in the foreground, and the
     * same run measured 4.5-5.7 s or 3.3 s depending only on that. Needs SUPER (the benchmark's own
     * user has it); without it the phase runs as it finds the database and says so.
     */
    void letDatabaseRest() {
        Object before;
        try {
            before = db.execute().get("SELECT @@GLOBAL.innodb_max_dirty_pages_pct").orElseThrow().column(1).get();
            db.execute().dml("SET GLOBAL innodb_max_dirty_pages_pct = 0");
        } catch (RuntimeException e) {
            out.println("database not rested before the phase (needs SUPER): " + e.getMessage());
            return;
        }
        Instant start = Instant.now();
        try {
            while (dirtyPages() > 100 && Duration.between(start, Instant.now()).toSeconds() < 120) {
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            db.execute().dml("SET GLOBAL innodb_max_dirty_pages_pct = " + before);
        }
        out.printf("database rested in %.1f s (%d dirty pages left)%n",
                Duration.between(start, Instant.now()).toMillis() / 1000.0, dirtyPages());
    }

    private long dirtyPages() {
        return db.execute().get("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")
                .map(r -> Long.parseLong(String.valueOf(r.column(2).get()))).orElse(0L);
    }

    /** Launches an activity as the admin API does: its ledger rows first, then its stock preheated into Redis. */
    private Activity launch(int stock) {
        Activity activity = catalog.register(new NewActivity("settlement bench", Instant.now().minusSeconds(1),
                Instant.now().plus(Duration.ofHours(1)), Duration.ofMinutes(15),
                List.of(new SkuLine(SKU, stock, 1, 1))));
        for (SkuLine sku : activity.skus()) {
            preheating.preheat(new PreheatStock(activity.id(), sku.skuId(), sku.total(), sku.buckets(),
                    activity.endsAt().plus(Duration.ofSeconds(keysOutliveEndSeconds))));
        }
        return activity;
    }
}
