package seckill.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The batching logic alone: a batch call stands in for the Redis script. */
class CoalescingTest {

    @Test
    void everyCallerGetsItsOwnAnswerAndBatchesStayBounded() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            sizes.add(claims.size());
            sleep(2);
            inFlight.decrementAndGet();
            return claims.stream().map(c -> lane + ":" + c).toList();
        }, 8, 0, 1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Future<String>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 400; i++) {
                int claim = i;
                answers.add(pool.submit(() -> {
                    gate.await();
                    return coalescing.submit("lane" + (claim % 2), claim, 10_000);
                }));
            }
            gate.countDown();
            for (int i = 0; i < 400; i++) {
                assertThat(answers.get(i).get(), is("lane" + (i % 2) + ":" + i));
            }
        }
        assertThat(sizes.stream().mapToInt(Integer::intValue).sum(), is(400));
        assertThat(sizes, everyItem(lessThanOrEqualTo(8)));
        assertThat("claims arriving together share calls", sizes.size(), lessThanOrEqualTo(400 / 2));
        // one call at a time per lane, two lanes
        assertThat(mostInFlight.get(), lessThanOrEqualTo(2));
    }

    @Test
    void aFailedCallFailsEveryCallerInIt() {
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            throw new IllegalArgumentException("redis said no");
        }, 8, 0, 1);
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> coalescing.submit("lane", 1, 1_000));
        assertThat(failure.getMessage(), is("redis said no"));
    }

    @Test
    void anErrorInTheCallStillAnswersEveryCallerOfTheBatch() throws Exception {
        CountDownLatch bothQueued = new CountDownLatch(2);
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            throw new AssertionError("not an exception");
        }, 8, 0, 1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Throwable>> callers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int claim = i;
                callers.add(pool.submit(() -> {
                    bothQueued.countDown();
                    try {
                        coalescing.submit("lane", claim, 30_000);
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                }));
            }
            for (Future<Throwable> caller : callers) {
                // well before the 30 s timeout: a waiter left without an answer would only get one then
                assertThat(caller.get(5, java.util.concurrent.TimeUnit.SECONDS) != null, is(true));
            }
        }
    }

    @Test
    void aClaimStillQueuedAtItsTimeoutIsWithdrawnNotSent() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        List<Integer> sent = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            sent.addAll(claims);
            entered.countDown();
            await(release);
            return claims.stream().map(String::valueOf).toList();
        }, 8, 0, 1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> first = pool.submit(() -> coalescing.submit("lane", 1, 10_000));
            entered.await();
            long start = System.nanoTime();
            assertThrows(Coalescing.NotSent.class, () -> coalescing.submit("lane", 2, 50));
            // at its own deadline, not at the first claim's (10 s): the lane's deadline check moves earlier
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), lessThan(5_000L));
            release.countDown();
            assertThat(first.get(), is("1"));
        }
        assertThat("the withdrawn claim never reached the call", sent, is(List.of(1)));
    }

    @Test
    void aLoneCallerIsSentAloneWithoutWaitingForCompany() {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            sizes.add(claims.size());
            return List.of("only");
        }, 32, 0, 1);
        assertThat(coalescing.submit("lane", 1, 1_000), is("only"));
        assertThat(sizes, is(List.of(1)));
    }

    @Test
    void aLoneCallerOnAnIdleLaneIsNotKeptWaitingForCompany() {
        // a wait for company pays only under load; at low load it would be latency for nothing
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            sizes.add(claims.size());
            return List.of("only");
        }, 32, 5_000_000, 1);
        long start = System.nanoTime();
        assertThat(coalescing.submit("lane", 1, 10_000), is("only"));
        assertThat(coalescing.submit("lane", 2, 10_000), is("only"));
        long waitedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(sizes, is(List.of(1, 1)));
        assertThat("two lone callers did not wait the 5 s wait for company (" + waitedMillis + " ms)",
                waitedMillis < 2_500, is(true));
    }

    @Test
    void underLoadACallWaitsForCompany() throws Exception {
        List<List<Integer>> calls = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = laneJustUnderLoad(calls, 32, 400_000);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            // the lane's last call carried two: the next caller waits for company, and one arriving
            // within the wait rides on its call
            Future<String> fourth = pool.submit(() -> coalescing.submit("lane", 4, 10_000));
            sleep(100);
            Future<String> fifth = pool.submit(() -> coalescing.submit("lane", 5, 10_000));
            assertThat(fourth.get(), is("4"));
            assertThat(fifth.get(), is("5"));
        }
        assertThat(calls.size(), is(3));
        assertThat(calls.getLast(), is(List.of(4, 5)));
    }

    @Test
    void noCallerIsKeptSendingOtherBuyersClaimsWhileTheyKeepArriving() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            calls.incrementAndGet();
            sleep(2);
            return claims.stream().map(String::valueOf).toList();
        }, 4, 0, 1);
        java.util.concurrent.atomic.AtomicLong longestNanos = new java.util.concurrent.atomic.AtomicLong();
        List<Future<?>> producers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 16; t++) {
                producers.add(pool.submit(() -> {
                    // a steady stream of buyers for three seconds: a caller made to drain the queue
                    // before returning would be stuck for the rest of it
                    long until = System.nanoTime() + 3_000_000_000L;
                    for (int i = 0; System.nanoTime() < until; i++) {
                        long started = System.nanoTime();
                        assertThat(coalescing.submit("hot", i, 10_000), is(String.valueOf(i)));
                        longestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                    }
                    return null;
                }));
            }
        }
        for (Future<?> producer : producers) {
            producer.get();
        }
        assertThat(calls.get() > 100, is(true));
        assertThat("longest single call in ms", longestNanos.get() / 1_000_000, lessThanOrEqualTo(1_500L));
    }

    @Test
    void idleLanesAreForgottenSoTheyDoNotGrowWithEverySale() {
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> List.of(lane), 32, 0, 1);
        for (int i = 0; i < Coalescing.IDLE_LANES_KEPT * 2; i++) {
            assertThat(coalescing.submit("bucket-" + i, i, 1_000), is("bucket-" + i));
        }
        assertThat(coalescing.laneCount(), lessThanOrEqualTo(Coalescing.IDLE_LANES_KEPT + 1));
    }

    /**
     * A lane whose last call carried company, as {@link #underLoadACallWaitsForCompany} leaves it:
     * claim 1 is held on the wire while 2 and 3 queue, so the last call carried [2, 3].
     */
    private static Coalescing<Integer, String> laneJustUnderLoad(List<List<Integer>> calls, int maxBatch,
                                                                 long maxWaitMicros) throws Exception {
        CountDownLatch firstOnTheWire = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Coalescing<Integer, String> coalescing = new Coalescing<>((lane, claims) -> {
            calls.add(List.copyOf(claims));
            if (claims.contains(1)) {
                firstOnTheWire.countDown();
                await(release);
            }
            return claims.stream().map(String::valueOf).toList();
        }, maxBatch, maxWaitMicros, 1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> first = pool.submit(() -> coalescing.submit("lane", 1, 10_000));
            await(firstOnTheWire);
            Future<String> second = pool.submit(() -> coalescing.submit("lane", 2, 10_000));
            Future<String> third = pool.submit(() -> coalescing.submit("lane", 3, 10_000));
            while (coalescing.queued("lane") < 2) {
                Thread.onSpinWait();
            }
            release.countDown();
            first.get();
            second.get();
            third.get();
        }
        // (2 and 3 queue in either order)
        assertThat(calls.size(), is(2));
        assertThat(calls.get(1).size(), is(2));
        return coalescing;
    }

    @Test
    void aLoneCallerOnALaneIdleSinceABurstIsNotKeptWaitingForCompany() throws Exception {
        // the hostile review of issue #35's eighth step: the load flag never aged, so after any burst
        // the next lone caller paid the whole wait, however long the lane had been idle
        Coalescing<Integer, String> coalescing = laneJustUnderLoad(new CopyOnWriteArrayList<>(), 64, 200_000);
        sleep(1_000);
        long start = System.nanoTime();
        assertThat(coalescing.submit("lane", 4, 10_000), is("4"));
        assertThat("a lone caller on a lane idle for 1 s waits for no company (the wait is 200 ms)",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), lessThan(100L));
    }

    @Test
    void aWaitForCompanyEndsWhenTheBatchIsFull() throws Exception {
        List<List<Integer>> calls = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = laneJustUnderLoad(calls, 2, 5_000_000);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            long start = System.nanoTime();
            Future<String> fourth = pool.submit(() -> coalescing.submit("lane", 4, 10_000));
            sleep(50);
            Future<String> fifth = pool.submit(() -> coalescing.submit("lane", 5, 10_000));
            assertThat(fourth.get(), is("4"));
            assertThat(fifth.get(), is("5"));
            assertThat("the batch of 2 was full at 50 ms; the wait is 5 s",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), lessThan(2_000L));
        }
        assertThat(calls.getLast(), is(List.of(4, 5)));
    }

    @Test
    void aClaimPastItsDeadlineIsNotSentWhenTheDeadlineTimerIsLate() throws Exception {
        List<List<Integer>> calls = new CopyOnWriteArrayList<>();
        Coalescing<Integer, String> coalescing = laneJustUnderLoad(calls, 64, 200_000);
        // the one timer thread that withdraws claims past their deadline is late (a long pause)
        var timer = Coalescing.class.getDeclaredField("DEADLINES");
        timer.setAccessible(true);
        ((java.util.concurrent.ScheduledExecutorService) timer.get(null)).execute(() -> sleep(500));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<String> waiting = pool.submit(() -> coalescing.submit("lane", 4, 10_000));
            sleep(20);
            Future<String> shortLived = pool.submit(() -> coalescing.submit("lane", 5, 50));
            var failure = assertThrows(java.util.concurrent.ExecutionException.class, shortLived::get);
            assertThat(failure.getCause() instanceof Coalescing.NotSent, is(true));
            assertThat(waiting.get(), is("4"));
        }
        assertThat(calls.getLast(), is(List.of(4)));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
