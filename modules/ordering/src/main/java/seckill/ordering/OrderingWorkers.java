package seckill.ordering;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.ordering.api.LedgerUnavailable;
import seckill.ordering.api.OrderingSwitch;
import seckill.ordering.rules.OrderPace;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.UnreplicatedEvents;

/**
 * The consumer-group workers of this instance. Each worker polls every live stream for new events,
 * settles them through {@link PlacingOrders}, and now and then takes over events that another
 * consumer left pending too long (a crashed or stuck instance).
 */
@ApplicationScoped
class OrderingWorkers implements OrderingSwitch {
    private static final Metadata STREAM_PENDING = Metadata.builder().withName("seckill.stream.pending")
            .withDescription("Reservation events delivered to an ordering worker of the consumer group and not yet "
                    + "acknowledged (recorded but not yet settled), over every live bucket stream.").build();
    private static final Metadata STREAM_LAG = Metadata.builder().withName("seckill.stream.lag")
            .withDescription("Reservation events in the bucket streams never yet delivered to an ordering worker, over "
                    + "every live bucket stream.").build();

    private static final Logger LOG = Logger.getLogger(OrderingWorkers.class.getName());

    private final ReservationEvents events;
    private final LiveStreams liveStreams;
    private final PlacingOrders placingOrders;
    private final MetricRegistry metrics;
    private final CrashInjection crashes;
    private final BindingTheLedger binding;
    private final java.time.Clock clock;
    private final boolean enabled;
    private final int workerCount;

    // the benchmark may change it at run time (batchSize(int))
    private volatile int batchSize;

    private final long idlePollMillis;
    private final long reclaimIdleSeconds;
    private final java.util.Optional<String> consumerName;

    /** Longest pause between attempts while the ledger or Redis is failing. */
    private final long maxBackoffMillis;

    @Inject
    OrderingWorkers(ReservationEvents events, LiveStreams liveStreams, PlacingOrders placingOrders, MetricRegistry metrics,
                    CrashInjection crashes, BindingTheLedger binding, java.time.Clock clock, OrderingSettings settings) {
        this.events = events;
        this.liveStreams = liveStreams;
        this.placingOrders = placingOrders;
        this.metrics = metrics;
        this.crashes = crashes;
        this.binding = binding;
        this.clock = clock;
        this.enabled = settings.enabled();
        this.workerCount = settings.workers();
        this.batchSize = settings.batchSize();
        this.idlePollMillis = settings.idlePollMillis();
        this.reclaimIdleSeconds = settings.reclaimIdleSeconds();
        this.consumerName = settings.consumerName();
        this.maxBackoffMillis = settings.maxBackoffMillis();
    }

    private final LedgerOutage outage = new LedgerOutage();
    private final OrderPace pace = new OrderPace(System.nanoTime());
    private volatile long paceReadAt;
    private volatile long paceCap;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong pendingSeen = new AtomicLong();
    private volatile boolean running;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        metrics.gauge(STREAM_PENDING, this::pendingTotal);
        metrics.gauge(STREAM_LAG, this::lagTotal);
        if (!enabled) {
            LOG.info("ordering workers disabled (seckill.ordering.enabled=false)");
            return;
        }
        resume();
    }

    @Override
    public synchronized void resume() {
        if (running) {
            return;
        }
        running = true;
        String base = consumerName.orElseGet(OrderingWorkers::defaultConsumerName);
        for (int i = 0; i < workerCount; i++) {
            String consumer = base + "-w" + i;
            Thread thread = Thread.ofPlatform().name("ordering-" + consumer).daemon(true)
                    .start(() -> work(consumer));
            threads.add(thread);
        }
        LOG.info(() -> "started " + workerCount + " ordering workers as " + base + "-w*, batch size " + batchSize);
    }

    @PreDestroy
    void stop() {
        pause();
    }

    /** Stops the workers; an event being settled is finished or left pending, never half-done. */
    @Override
    public synchronized void pause() {
        running = false;
        for (Thread thread : threads) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        threads.clear();
    }

    @Override
    public boolean running() {
        return running;
    }

    @Override
    public void injectCrash(CrashPoint point, int times) {
        crashes.arm(point, times);
    }

    @Override
    public Optional<String> ledgerOutage() {
        return outage.current();
    }

    @Override
    public int aliveWorkers() {
        return (int) threads.stream().filter(Thread::isAlive).count();
    }

    @Override
    public void batchSize(int events) {
        if (events < 1) {
            throw new IllegalArgumentException("batch size must be >= 1");
        }
        batchSize = events;
    }

    private void work(String consumer) {
        long backoff = 0;
        long nextReclaim = System.nanoTime();
        // a (re)started consumer, or one coming out of an outage, first finishes what it was handed
        boolean ownPendingFirst = true;
        while (running) {
            try {
                if (binding.foreign().isPresent()) {
                    // another ledger's namespace (or nobody's): its events are not this ledger's to order
                    Thread.sleep(Math.max(idlePollMillis, 200));
                    continue;
                }
                if (outage.ongoing() && !placingOrders.ledgerAnswers()) {
                    throw new LedgerUnavailable(new java.sql.SQLTransientConnectionException("the ledger does not answer"));
                }
                if (ownPendingFirst) {
                    settleOwnPending(consumer);
                    ownPendingFirst = false;
                }
                int settled = 0;
                RuntimeException failure = null;
                for (String stream : liveStreams()) {
                    // one stream's trouble must not starve the others; an outage of the ledger stops them all
                    try {
                        int allowed = pace.grant(batchSize, System.nanoTime(), maxOrdersPerSecond());
                        if (allowed == 0) {
                            // paced: the events wait in the stream, the ledger writes at its steady rate
                            continue;
                        }
                        List<ReservationEvent> batch = events.readNew(stream, consumer, allowed);
                        pace.giveBack(allowed - batch.size());
                        if (!batch.isEmpty()) {
                            placingOrders.settle(batch);
                            settled += batch.size();
                        }
                    } catch (CrashInjection.WorkerCrash | LedgerUnavailable | UnreplicatedEvents e) {
                        throw e;
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
                if (System.nanoTime() >= nextReclaim) {
                    nextReclaim = System.nanoTime() + Duration.ofSeconds(Math.max(1, reclaimIdleSeconds / 3)).toNanos();
                    for (String stream : liveStreams()) {
                        List<ReservationEvent> stale = events.reclaimIdle(stream, consumer,
                                Duration.ofSeconds(reclaimIdleSeconds), batchSize);
                        if (!stale.isEmpty()) {
                            placingOrders.settle(stale);
                            settled += stale.size();
                        }
                    }
                }
                if (failure != null) {
                    throw failure;
                }
                backoff = 0;
                outage.ended();
                if (settled == 0) {
                    Thread.sleep(idlePollMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (CrashInjection.WorkerCrash crash) {
                LOG.warning(() -> "ordering worker " + consumer + " killed: " + crash.getMessage());
                return;
            } catch (LedgerUnavailable e) {
                // not the events' fault: they stay pending, nothing counts against them, and no new ones are taken
                ownPendingFirst = true;
                backoff = nextBackoff(backoff);
                if (outage.began(clock.instant())) {
                    LOG.warning("ledger database unavailable; ordering workers back off (up to " + maxBackoffMillis
                            + " ms) and take no new events until it answers: " + e.getMessage());
                }
                if (!pause(backoff)) {
                    return;
                }
            } catch (UnreplicatedEvents e) {
                // read but not yet safe from a failover: they stay pending with this consumer, which
                // reads them again first, once the replicas have caught up
                ownPendingFirst = true;
                backoff = nextBackoff(backoff);
                LOG.warning(() -> "ordering worker " + consumer + " waits for Redis replicas: " + e.getMessage());
                if (!pause(backoff)) {
                    return;
                }
            } catch (RuntimeException e) {
                backoff = nextBackoff(backoff);
                LOG.log(Level.WARNING, "ordering worker " + consumer + " failed; retrying in " + backoff + " ms", e);
                if (!pause(backoff)) {
                    return;
                }
            }
        }
    }

    /**
     * The hot switch {@code seckill.ordering.max-orders-per-second} (0: no cap), re-read at most twice
     * a second like the other switches, so an operator can slow the ledger down mid-sale.
     */
    private long maxOrdersPerSecond() {
        long now = System.nanoTime();
        if (now - paceReadAt > 500_000_000L) {
            try {
                paceCap = Math.max(0, ConfigProvider.getConfig()
                        .getOptionalValue("seckill.ordering.max-orders-per-second", Long.class).orElse(0L));
            } catch (RuntimeException badValue) {
                // a half-written switches file keeps the previous cap
            }
            paceReadAt = now;
        }
        return paceCap;
    }

    /** Doubles the pause between failed attempts, from 100 ms up to {@code maxBackoffMillis}. */
    private long nextBackoff(long previous) {
        return Math.min(maxBackoffMillis, Math.max(100, previous * 2));
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Finishes what this consumer had been handed before it stopped, before the ledger went away, or
     * before the replicas held it. An outage or unreplicated events are thrown; any other trouble is
     * logged and left to the reclaim.
     */
    private void settleOwnPending(String consumer) {
        try {
            for (String stream : liveStreams()) {
                // one pass, page by page, each entry once: what stays pending (unreadable, refused by the
                // ledger) waits for the reclaim's spacing. Reading it again at once would be another
                // delivery each time, so a pass that compared what it read would never end, and a
                // refusal would burn max-deliveries in milliseconds.
                List<ReservationEvent> mine = events.readOwnPending(stream, consumer, batchSize, "0-0");
                while (running && !mine.isEmpty()) {
                    placingOrders.settle(mine);
                    mine = events.readOwnPending(stream, consumer, batchSize, mine.getLast().position().entryId());
                }
            }
        } catch (CrashInjection.WorkerCrash | LedgerUnavailable | UnreplicatedEvents e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "consumer " + consumer + " could not settle its own pending events", e);
        }
    }

    /** The registry's streams and those the ledger says must exist: a bucket lost from the registry is still read. */
    private List<String> liveStreams() {
        return liveStreams.list();
    }

    private long pendingTotal() {
        try {
            long total = 0;
            for (String stream : liveStreams()) {
                total += events.pending(stream) + events.undelivered(stream);
            }
            pendingSeen.set(total);
            return total;
        } catch (RuntimeException e) {
            return pendingSeen.get();
        }
    }

    /** Events recorded but never handed to a consumer: how far the workers are behind. */
    private long lagTotal() {
        try {
            long total = 0;
            for (String stream : liveStreams()) {
                total += events.undelivered(stream);
            }
            return total;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static String defaultConsumerName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "host";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
