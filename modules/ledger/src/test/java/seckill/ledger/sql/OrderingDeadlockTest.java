package seckill.ledger.sql;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.TestLedger;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Ordering batches of one SKU meet on its stock row: two workers settling two buckets of one SKU
 * at once (CI saw {@code MySQLTransactionRollbackException: Deadlock} and the workers backing off as
 * from an outage). A batch takes no lock on the stock row before its own update, so two batches
 * queue there instead of deadlocking; and a batch a deadlock rolls back anyway (another client
 * holding the row) is run again at once, never reported as the database being away.
 */
class OrderingDeadlockTest {

    @RegisterExtension
    static final TestLedger LEDGER = new TestLedger();

    private static final long SKU = 1;
    private static final AtomicLong SEQUENCE = new AtomicLong();

    @Test
    void twoWorkersOrderingTwoBucketsOfOneSkuAtOnceEveryBatchCommits() throws Exception {
        int rounds = 30;
        int perBatch = 10;
        Activity activity = activity(2 * rounds * perBatch, 2);
        OrderWriter writer = new OrderWriter(LEDGER.db());
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long deadlocksBefore = serverDeadlocks();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> written = new ArrayList<>();
            for (int bucket = 0; bucket < 2; bucket++) {
                int b = bucket;
                written.add(workers.submit(() -> {
                    int orders = 0;
                    for (int round = 0; round < rounds; round++) {
                        try {
                            orders += writer.writeBatch(batch(activity, b, perBatch), a -> Duration.ofMinutes(15),
                                    Instant.now());
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    }
                    return orders;
                }));
            }
            int orders = written.get(0).get(60, TimeUnit.SECONDS) + written.get(1).get(60, TimeUnit.SECONDS);
            System.out.println("two workers, one SKU: " + orders + " orders, InnoDB deadlocks on the server meanwhile "
                    + (serverDeadlocks() - deadlocksBefore) + " (all databases), failures " + failures.size());
            assertThat("no batch failed: " + failures.stream().map(Throwable::getMessage).toList(),
                    List.copyOf(failures), is(empty()));
            assertThat(orders, is(2 * rounds * perBatch));
        } finally {
            workers.shutdownNow();
        }
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activity.id()),
                is((long) 2 * rounds * perBatch));
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_stock_log WHERE activity_id = ?", activity.id()),
                is((long) 2 * rounds * perBatch));
        assertThat(available(activity), is(0L));
    }

    @Test
    void aBatchHoldsNoLockOnTheStockRowBeforeItsOwnUpdate() throws Exception {
        Activity activity = activity(100, 2);
        List<ReservationEvent> batch = batch(activity, 0, 3);
        try (Connection holder = LEDGER.connect(); Connection other = LEDGER.connect()) {
            holder.setAutoCommit(false);
            // the batch is held up at its deduct log rows, after its orders and before its stock update:
            // a lock on the gap above the log's last row keeps any row from being appended
            try (Statement s = holder.createStatement()) {
                s.executeQuery("SELECT id FROM seckill_stock_log WHERE id > (SELECT COALESCE(MAX(id), 0) FROM "
                        + "(SELECT id FROM seckill_stock_log) AS l) FOR UPDATE").close();
            }
            CompletableFuture<Integer> written = inThreadOfItsOwn(
                    () -> new OrderWriter(LEDGER.db()).writeBatch(batch, a -> Duration.ofMinutes(15), Instant.now()));
            awaitHeldUp("Update", written);

            // meanwhile another writer of the SKU's stock row (another worker's batch, a refill) gets it
            other.setAutoCommit(false);
            String updated;
            try (Statement s = other.createStatement()) {
                s.execute("SET SESSION innodb_lock_wait_timeout = 2");
                s.executeUpdate("UPDATE seckill_stock SET available = available WHERE activity_id = " + activity.id()
                        + " AND sku_id = " + SKU);
                updated = "updated";
            } catch (SQLException e) {
                updated = e.getErrorCode() + ": " + e.getMessage();
            } finally {
                other.rollback();
                holder.rollback();
            }
            assertThat("the stock row was free while the batch wrote its other rows", updated, is("updated"));
            assertThat(written.get(10, TimeUnit.SECONDS), is(3));
        }
        assertThat(available(activity), is(97L));
    }

    @Test
    void aBatchChosenAsADeadlocksVictimIsRunAgainAtOnce() throws Exception {
        Activity activity = activity(100, 2);
        List<ReservationEvent> batch = batch(activity, 1, 5);
        CompletableFuture<Integer> written;
        long began;
        try (Connection other = LEDGER.connect()) {
            other.setAutoCommit(false);
            // another client with much written (so InnoDB rolls the batch back, the lighter of the two)
            // holds the SKU's stock row shared, then wants it exclusively while the batch waits for it
            try (PreparedStatement log = other.prepareStatement("INSERT INTO seckill_stock_log "
                    + "(activity_id, sku_id, change_type, quantity, biz_id, created_at) VALUES (0, 0, 9, 1, ?, NOW(3))")) {
                for (int i = 0; i < 300; i++) {
                    log.setString(1, "heavy-" + activity.id() + "-" + i);
                    log.addBatch();
                }
                log.executeBatch();
            }
            try (Statement s = other.createStatement()) {
                s.executeQuery("SELECT available FROM seckill_stock WHERE activity_id = " + activity.id() + " AND sku_id = "
                        + SKU + " LOCK IN SHARE MODE").close();
            }
            began = System.nanoTime();
            written = inThreadOfItsOwn(
                    () -> new OrderWriter(LEDGER.db()).writeBatch(batch, a -> Duration.ofMinutes(15), Instant.now()));
            awaitHeldUp("Updating", written);
            try (Statement s = other.createStatement()) {
                s.executeUpdate("UPDATE seckill_stock SET available = available WHERE activity_id = " + activity.id()
                        + " AND sku_id = " + SKU);
            } catch (SQLException e) {
                throw new AssertionError("the planted deadlock rolled back the other client, not the batch", e);
            }
            Thread.sleep(200);
            other.rollback();
        }
        // the victim's batch was rolled back whole and is written again as soon as the row is free
        assertThat(written.get(10, TimeUnit.SECONDS), is(5));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        System.out.println("deadlock victim's batch committed " + millis + " ms after it began (200 ms of it the other "
                + "client's hold)");
        assertThat("written at once, not after a back-off", millis, lessThan(3_000L));
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activity.id()), is(5L));
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_stock_log WHERE activity_id = ?", activity.id()), is(5L));
        assertThat(available(activity), is(95L));
    }

    /** A batch in a thread of its own, as a worker's (the common pool may have one thread only). */
    private static CompletableFuture<Integer> inThreadOfItsOwn(java.util.function.Supplier<Integer> batch) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                done.complete(batch.get());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static Activity activity(long stock, int buckets) {
        SkuLine line = new SkuLine(SKU, stock, 1, buckets, Optional.empty(),
                Optional.of(new SkuPrice(new BigDecimal("9.90"), "EUR")), Optional.empty());
        return LEDGER.register(new NewActivity("deadlock", Instant.now().minusSeconds(1),
                Instant.now().plus(Duration.ofHours(1)), Duration.ofMinutes(15), List.of(line)));
    }

    private static List<ReservationEvent> batch(Activity activity, int bucket, int size) {
        List<ReservationEvent> events = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            // the order number is derived from the sequence: unique across activities (and runs) by the activity's id
            long sequence = activity.id() * 1_000_000 + SEQUENCE.incrementAndGet();
            ReservationId id = new ReservationId(activity.id(), SKU, bucket, sequence);
            events.add(new ReservationEvent(id, sequence, 1, "r-" + id, Instant.now(),
                    new EventPosition("stream-" + bucket, System.currentTimeMillis() + "-" + sequence), 1));
        }
        return events;
    }

    private static long available(Activity activity) {
        return LEDGER.count("SELECT available FROM seckill_stock WHERE activity_id = ? AND sku_id = ?", activity.id(), SKU);
    }

    /**
     * Waits until a statement of this database's clients is held up in the state the server names
     * ({@code Update}: an insert, {@code Updating}: an update). By the state, not the text: with
     * prepared statements the server may show no text.
     */
    private static void awaitHeldUp(String state, CompletableFuture<?> batch) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection look = LEDGER.connect();
             PreparedStatement q = look.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                     + "WHERE db = DATABASE() AND command IN ('Query', 'Execute') AND state = ? AND time_ms > 200")) {
            q.setString(1, state);
            while (System.nanoTime() < deadline) {
                if (batch.isDone()) {
                    throw new AssertionError("the batch ended before it was held up (" + state + "): " + batch.handle(
                            (result, failure) -> failure != null ? failure.toString() : "wrote " + result).join());
                }
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the batch was not held up (" + state + ") within 10 s");
    }

    private static long serverDeadlocks() throws SQLException {
        try (Connection c = LEDGER.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'")) {
            return rs.next() ? rs.getLong(2) : -1;
        }
    }
}
