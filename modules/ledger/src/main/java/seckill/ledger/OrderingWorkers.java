package seckill.ledger;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import seckill.ledger.api.OrderingSwitch;
import seckill.ledger.hooks.CrashPoint;
import seckill.ledger.hooks.WorkerHooks;

/**
 * The consumer-group workers of this instance, as threads: started with the service (unless
 * {@code seckill.ordering.enabled=false}), paused and resumed by an operator, stopped with the
 * service. Each thread runs one consumer through {@link WorkerLoop}; an event being settled when they
 * stop is finished or left pending, never half-done.
 */
@ApplicationScoped
class OrderingWorkers implements OrderingSwitch, WorkerHooks {

    private static final Logger LOG = Logger.getLogger(OrderingWorkers.class.getName());

    private final WorkerLoop loop;
    private final OrderingPass pass;
    private final CrashInjection crashes;
    private final boolean enabled;
    private final int workerCount;
    private final Optional<String> consumerName;
    private final PaceSwitch pace;

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    /** Names the threads and consumers apart: empty for the real world's, {@code -rh} for the rehearsals'. */
    private final String kind;

    @Inject
    OrderingWorkers(WorkerLoop loop, OrderingPass pass, CrashInjection crashes, OrderingSettings settings,
                    PaceSwitch pace) {
        this(loop, pass, crashes, settings, pace, settings.workers(), "");
    }

    /**
     * Workers of another graph (the rehearsals', {@link RehearsalOrdering}): {@code workerCount} threads whose
     * consumer names end in {@code kind} before the worker number; never made through CDI.
     */
    OrderingWorkers(WorkerLoop loop, OrderingPass pass, CrashInjection crashes, OrderingSettings settings,
                    PaceSwitch pace, int workerCount, String kind) {
        this.loop = loop;
        this.pace = pace;
        this.pass = pass;
        this.crashes = crashes;
        this.enabled = settings.enabled();
        this.workerCount = workerCount;
        this.consumerName = settings.consumerName();
        this.kind = kind;
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
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
        String base = consumerName.orElseGet(OrderingWorkers::defaultConsumerName) + kind;
        for (int i = 0; i < workerCount; i++) {
            StreamConsumer consumer = new StreamConsumer(base + "-w" + i, () -> running);
            Thread thread = Thread.ofPlatform().name("ordering-" + consumer.name()).daemon(true)
                    .start(() -> loop.work(consumer));
            threads.add(thread);
        }
        LOG.info(() -> "started " + workerCount + " ordering workers as " + base + "-w*, batch size " + pass.batchSize());
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
    public Optional<String> ledgerOutage() {
        return loop.ledgerOutage();
    }

    @Override
    public int aliveWorkers() {
        return (int) threads.stream().filter(Thread::isAlive).count();
    }

    @Override
    public void injectCrash(CrashPoint point, int times) {
        crashes.arm(point, times);
    }

    @Override
    public void batchSize(int events) {
        pass.batchSize(events);
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

    @Override
    public long maxOrdersPerSecond() {
        return pace.maxOrdersPerSecond();
    }
}
