package seckill.queue;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.LineSales;
import seckill.queue.api.LineUnavailable;
import seckill.queue.api.QueueWindow;
import seckill.queue.rules.RateBudget;
import seckill.redis.RedisScript;

/**
 * Moves every live line while the queue is on, every {@code seckill.queue.tick-millis} on each instance
 * ({@code admit.lua}): makes the use marks of passes that bought which Redis did not answer ({@link MarkingPassesUsed}),
 * withdraws passes whose time ran out unused (their place goes to the next buyer; the turn is recorded where the
 * line's keys are not, {@link RecordingTurnsRunOut}),
 * closes or reopens the line by the units left ({@link ClosingTheLine}), then calls the next buyers, as many
 * as this second's budget at {@code seckill.queue.rate} leaves ({@link RateBudget}; the count is per second in
 * Redis and shared by every instance, so together they never call more than the rate) and no more than the
 * units left minus the passes out. The first tick after the start places the pre-queue in its drawn order.
 */
@QueueBean
class AdmittingFromTheLine {

    private static final Logger LOG = Logger.getLogger(AdmittingFromTheLine.class.getName());

    /** What one tick did and read. */
    record Tick(long calledNow, long expiredNow, long waiting, long passesOut, long calledTotal, boolean closed) {
    }

    private final RedisScript script = LineCalls.withLine("admit.lua");
    private final LineCalls calls;
    private final UnifiedJedis redis;
    private final Clock clock;
    private final QueueSettings settings;
    private final QueueSwitches switches;
    private final LineSales sales;
    private final ClosingTheLine closing;
    private final LineFigures figures;
    private final MarkingPassesUsed uses;
    private final RecordingTurnsRunOut turnsRunOut;
    private ScheduledExecutorService ticker;
    private volatile long lastWarning;
    /**
     * Set when a tick's write was not acknowledged by the replicas in force: until one tick is, ticks call
     * nobody (they only withdraw expired passes), so an outage of the replicas lets at most one tick's calls
     * exist on the master alone, the ones a failover could lose and repeat.
     */
    private final java.util.Set<Long> holding = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Inject
    AdmittingFromTheLine(UnifiedJedis redis, Clock clock, QueueSettings settings, QueueSwitches switches,
                         LineSales sales, ClosingTheLine closing, LineFigures figures, MarkingPassesUsed uses,
                         RecordingTurnsRunOut turnsRunOut) {
        this.calls = new LineCalls(redis, settings.acksInForce());
        this.redis = redis;
        this.clock = clock;
        this.settings = settings;
        this.switches = switches;
        this.sales = sales;
        this.closing = closing;
        this.figures = figures;
        this.uses = uses;
        this.turnsRunOut = turnsRunOut;
    }

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon(true)
                .name("queue-admitting").unstarted(r));
        LOG.info(() -> "waiting lines moved every " + settings.tickMillis() + " ms while seckill.queue.enabled is true");
        ticker.scheduleWithFixedDelay(this::tickQuietly, settings.tickMillis(), settings.tickMillis(),
                TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }

    private void tickQuietly() {
        try {
            tickAll();
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            if (now - lastWarning > TimeUnit.SECONDS.toNanos(10)) {
                lastWarning = now;
                LOG.log(Level.WARNING, "the line could not be moved (tried again every tick; this is said once in 10 s)", e);
            }
        }
    }

    /** One tick of every live line, while the queue is on. */
    void tickAll() {
        if (!switches.on()) {
            return;
        }
        Instant now = clock.instant();
        List<LineSales.LiveSale> live = sales.live(now, now.plusMillis(settings.tickMillis()));
        LOG.fine(() -> "live lines: " + live);
        Set<Long> ids = new HashSet<>();
        for (LineSales.LiveSale sale : live) {
            ids.add(sale.activityId());
            tick(sale.activityId(), sale.window());
        }
        figures.retain(ids);
    }

    /** One tick of one line. Throws {@link LineUnavailable}. */
    Tick tick(long activityId, QueueWindow window) {
        // first the use marks Redis did not answer: a pass that bought and still counted as out holds its unit twice
        uses.markAgain(activityId);
        turnsRunOut.recordAgain(activityId);
        long now = clock.millis();
        boolean started = window.startedAt(Instant.ofEpochMilli(now));
        // the passes marked used so far, read before the units left: a purchase that lands between that read and
        // admit.lua took its unit from the units read too late and its pass from those counted in time (admit.lua
        // takes the passes marked used since off the room: no buyer is called for a unit that is gone)
        String usedBefore = started ? usedSoFar(activityId) : "";
        OptionalLong unitsLeft = started ? sales.unitsLeft(activityId) : OptionalLong.empty();
        boolean closed = unitsLeft.isPresent() && closing.closedWith(activityId, unitsLeft.getAsLong());
        long room = room(unitsLeft);
        long allowed = holding.contains(activityId) ? 0 : RateBudget.allowedBy(switches.rate(), Math.floorMod(now, 1000));
        List<?> reply;
        try {
            reply = (List<?>) calls.write(script, new LineKeys(activityId).admitting(Math.floorDiv(now, 1000)),
                    List.of(Long.toString(now), started ? "1" : "0", Long.toString(allowed),
                            Long.toString(settings.passSeconds() * 1000), Long.toString(room),
                            Long.toString(switches.rate()), Long.toString(settings.tickMillis()), usedBefore));
        } catch (LineUnavailable e) {
            if (e.getCause() instanceof seckill.redis.ReplicaAcks.Missing) {
                holding.add(activityId);
            }
            throw e;
        }
        holding.remove(activityId);
        // the turns withdrawn now, kept outside the line's keys: a lost line gives their tickets no place ahead
        turnsRunOut.ranOut(activityId, reply.size() > 5 && reply.get(5) instanceof List<?> ranOut ? ranOut : List.of());
        Tick tick = new Tick(number(reply.get(0)), number(reply.get(1)), number(reply.get(2)), number(reply.get(3)),
                number(reply.get(4)), closed);
        figures.ticked(activityId, now, tick.calledNow(), tick.expiredNow(), tick.waiting(), tick.passesOut(),
                tick.calledTotal(), closed);
        return tick;
    }

    /** The line's running total of passes marked used ({@code meta used}). Throws {@link LineUnavailable}. */
    private String usedSoFar(long activityId) {
        try {
            String used = redis.hget(new LineKeys(activityId).meta(), "used");
            return used == null ? "0" : used;
        } catch (redis.clients.jedis.exceptions.JedisException e) {
            throw new LineUnavailable("Redis did not answer the line's call", e);
        }
    }

    /** Passes that may be out at once: the units left, capped by {@code seckill.queue.max-passes-out}; -1: no cap. */
    private long room(OptionalLong unitsLeft) {
        long cap = settings.maxPassesOut() > 0 ? settings.maxPassesOut() : -1;
        if (unitsLeft.isEmpty()) {
            return cap;
        }
        long units = Math.max(0, unitsLeft.getAsLong());
        return cap < 0 ? units : Math.min(units, cap);
    }

    private static long number(Object reply) {
        return reply instanceof Number n ? n.longValue() : Long.parseLong(RedisScript.text(reply));
    }
}
