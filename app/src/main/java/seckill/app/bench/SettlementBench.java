package seckill.app.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbTransaction;
import io.helidon.microprofile.server.Server;
import jakarta.enterprise.inject.spi.CDI;
import seckill.app.sale.LaunchingActivities;
import seckill.ordering.api.Activity;
import seckill.ordering.api.NewActivity;
import seckill.ordering.api.OrderingSwitch;
import seckill.ordering.hooks.WorkerHooks;
import seckill.ordering.api.SkuLine;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Reserving;

/**
 * {@code java -jar seckill.jar bench-settle [reservations] [one-by-one reservations]}: queues
 * reservations in the stream with the workers stopped, starts them and times how long MySQL takes
 * to hold every order; once batched, once one event per transaction; then writes the same rows
 * with plain SQL in the same batch size and thread count, the database's own ceiling.
 */
public final class SettlementBench {

    private final Reserving reserving;
    private final OrderingSwitch ordering;
    private final WorkerHooks workers;
    private final LaunchingActivities launching;
    private final DbClient db;
    private final PrintStream out;

    SettlementBench(Reserving reserving, OrderingSwitch ordering, WorkerHooks workers, LaunchingActivities launching,
                    DbClient db, PrintStream out) {
        this.reserving = reserving;
        this.ordering = ordering;
        this.workers = workers;
        this.launching = launching;
        this.db = db;
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
            SettlementBench bench = new SettlementBench(cdi.select(Reserving.class).get(),
                    cdi.select(OrderingSwitch.class).get(), cdi.select(WorkerHooks.class).get(),
                    cdi.select(LaunchingActivities.class).get(),
                    cdi.select(DbClient.class).get(), System.out);
            int batchSize = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("seckill.ordering.batch-size", Integer.class).orElse(100);
            int workers = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("seckill.ordering.workers", Integer.class).orElse(2);
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
                        ReservationOutcome outcome = reserving.reserve(new ReserveStock(activity.id(), 1, 1,
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
        while (total - available(activity.id()) < reserved.get()) {
            Thread.sleep(50);
            if (Duration.between(start, Instant.now()).toMinutes() >= 10) {
                throw new IllegalStateException("settlement did not finish in 10 minutes");
            }
        }
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        if (orders(activity.id()) != reserved.get()) {
            throw new IllegalStateException("the guard says every unit is ordered, the orders table disagrees");
        }
        double rate = reserved.get() / seconds;
        out.printf("%s: %d orders in %.2f s = %.0f orders/s%n", label, reserved.get(), seconds, rate);
        ordering.pause();
        return rate;
    }

    /**
     * The database's own ceiling for the same rows: the same multi-row inserts and conditional update
     * per transaction, from the same number of threads, with no stream, no Redis and no checks.
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
                        writeBatch(activity.id(), firstUser, i, Math.min(to, i + batchSize));
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

    private void writeBatch(long activity, long firstUser, int from, int to) {
        int n = to - from;
        LocalDateTimes now = new LocalDateTimes();
        List<Object> orders = new ArrayList<>(n * 10);
        List<Object> logs = new ArrayList<>(n * 5);
        for (int i = from; i < to; i++) {
            String reservation = activity + "-1-0-c" + Integer.toString(i, 36);
            orders.addAll(List.of(String.format("C%023d", activity * 10_000_000L + i), reservation,
                    activity + ":" + (firstUser + i) + ":c" + i, activity, 1L, firstUser + i, 1, now.expire, now.now,
                    now.now));
            logs.addAll(List.of(activity, 1L, 1, reservation, now.now));
        }
        DbTransaction tx = db.transaction();
        try {
            tx.insert("""
                    INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id, quantity,
                                               status, expire_at, created_at, updated_at) VALUES """
                    + String.join(", ", Collections.nCopies(n, "(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)")), orders.toArray());
            tx.insert("INSERT INTO seckill_stock_log (activity_id, sku_id, change_type, quantity, biz_id, created_at) VALUES "
                    + String.join(", ", Collections.nCopies(n, "(?, ?, 1, ?, ?, ?)")), logs.toArray());
            tx.dml("UPDATE seckill_stock SET available = available - ? WHERE activity_id = ? AND sku_id = ? AND available >= ?",
                    n, activity, 1L, n);
            tx.commit();
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
    }

    private static final class LocalDateTimes {
        final java.time.LocalDateTime now = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC);
        final java.time.LocalDateTime expire = now.plusMinutes(15);
    }

    private Activity launch(int stock) {
        return launching.launch(new NewActivity("settlement bench", Instant.now().minusSeconds(1),
                Instant.now().plus(Duration.ofHours(1)), Duration.ofMinutes(15),
                List.of(new SkuLine(1, stock, 1, 1))));
    }

    private long available(long activity) {
        return db.execute().get("SELECT available FROM seckill_stock WHERE activity_id = ? AND sku_id = 1", activity)
                .map(r -> ((Number) r.column(1).get()).longValue()).orElseThrow();
    }

    private long orders(long activity) {
        return db.execute().get("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activity)
                .map(r -> ((Number) r.column(1).get()).longValue()).orElse(0L);
    }
}
