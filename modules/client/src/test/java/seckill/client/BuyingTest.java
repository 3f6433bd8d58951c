package seckill.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.ws.rs.ProcessingException;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The client's purchase protocol against a scripted API: waits, retries, and look-ups. */
class BuyingTest {

    private static final Instant START = Instant.parse("2026-06-18T12:00:00Z");
    private static final PurchaseRequest REQUEST = new PurchaseRequest(3, 1, "r-77");
    private static final Reservation MINE = new Reservation("9-3-0-1ab", "QUEUED");

    private final Deque<Supplier<Reservation>> answers = new ArrayDeque<>();
    private final List<String> requestIds = new ArrayList<>();
    private final List<Duration> waits = new ArrayList<>();
    private List<ReservationView> held = List.of();
    private Instant now = START;

    private final Buying buying = new Buying(api(), new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }, duration -> {
        waits.add(duration);
        now = now.plus(duration);
    });

    @Test
    void throttledAndHaltedAreRetriedAfterTheirRetryAfterWithTheSameRequestId() throws Exception {
        answers.add(() -> {
            throw problem(429, "THROTTLED", 2);
        });
        answers.add(() -> {
            throw problem(503, "HALTED", 1);
        });
        answers.add(() -> MINE);
        assertThat(buying.buy(9, 77, null, REQUEST, START.plusSeconds(30)), is(MINE));
        assertThat(waits, contains(Duration.ofSeconds(2), Duration.ofSeconds(1)));
        assertThat(requestIds, everyItem(is("r-77")));
        assertThat(requestIds.size(), is(3));
    }

    @Test
    void aLostAnswerIsLookedUpInsteadOfReportedAsALoss() throws Exception {
        answers.add(() -> {
            // the purchase reached the service and reserved; its answer never came back
            held = List.of(view("9-3-0-1ab", "QUEUED"));
            throw new ProcessingException("connection reset");
        });
        assertThat(buying.buy(9, 77, null, REQUEST, START.plusSeconds(30)),
                is(new Reservation("9-3-0-1ab", "ALREADY_RESERVED")));
        assertThat(requestIds.size(), is(1));
        assertThat(waits, empty());
    }

    @Test
    void soldOutIsTheAnswerOnlyForABuyerWhoHoldsNothing() throws Exception {
        answers.add(() -> {
            throw problem(410, "SOLD_OUT", 0);
        });
        held = List.of(view("9-3-0-1ab", "ORDERED"));
        assertThat(buying.buy(9, 77, null, REQUEST, START.plusSeconds(30)).reservationId(), is("9-3-0-1ab"));

        answers.add(() -> {
            throw problem(410, "SOLD_OUT", 0);
        });
        held = List.of(view("9-3-0-1ab", "FAILED"));
        assertThrows(SeckillProblem.SoldOut.class, () -> buying.buy(9, 77, null, REQUEST, START.plusSeconds(30)));
    }

    @Test
    void aFinalRefusalIsThrownAtOnceAndTheDeadlineIsKept() {
        answers.add(() -> {
            throw problem(403, "TOKEN_INVALID", 0);
        });
        assertThrows(SeckillProblem.TokenInvalid.class, () -> buying.buy(9, 77, null, REQUEST, START.plusSeconds(30)));

        for (int i = 0; i < 10; i++) {
            answers.add(() -> {
                throw problem(429, "THROTTLED", 4);
            });
        }
        assertThrows(Buying.DeadlinePassed.class, () -> buying.buy(9, 77, null, REQUEST, START.plusSeconds(10)));
        // it waited twice (4 s + 4 s) and did not start a wait that would end past the deadline
        assertThat(waits, contains(Duration.ofSeconds(4), Duration.ofSeconds(4)));
    }

    private static SeckillProblem problem(int status, String code, long retryAfterSeconds) {
        return SeckillProblem.typed(new SeckillProblem(status, code, "scripted",
                retryAfterSeconds > 0 ? Optional.of(Duration.ofSeconds(retryAfterSeconds)) : Optional.empty(), Map.of()));
    }

    private static ReservationView view(String id, String status) {
        return new ReservationView(id, status, 3L, null, null, null, null, null, null, null);
    }

    private SeckillApi api() {
        return (SeckillApi) java.lang.reflect.Proxy.newProxyInstance(SeckillApi.class.getClassLoader(),
                new Class<?>[] {SeckillApi.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "purchase" -> {
                        requestIds.add(((PurchaseRequest) args[3]).requestId());
                        yield answers.removeFirst().get();
                    }
                    case "reservations" -> new BuyerReservations(held);
                    default -> throw new AssertionError("unexpected " + method.getName());
                });
    }
}
