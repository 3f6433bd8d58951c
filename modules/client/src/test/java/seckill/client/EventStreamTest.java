package seckill.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;

/** Server-Sent Events parsing as the waiting line's stream writes it (QueueEventsRoute), and the standard's corners. */
class EventStreamTest {

    private final EventStream stream = new EventStream();

    private List<EventStream.Dispatched> read(String text) {
        List<EventStream.Dispatched> events = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            stream.line(line).ifPresent(events::add);
        }
        return events;
    }

    @Test
    void theLinesStreamIsReadEventByEventWithItsIdsAndRetry() {
        List<EventStream.Dispatched> events = read(": waiting line\n\n"
                + "id: 3.WAITING.2\nevent: place\nretry: 1000\ndata: {\"state\":\"WAITING\"}\n\n"
                + ":\n\n"
                + "id: r.Q.1a\nevent: reservation\nretry: 1000\ndata: {\"reservations\":[]}\n\n");
        assertThat(events, contains(
                new EventStream.Dispatched("place", "3.WAITING.2", "{\"state\":\"WAITING\"}"),
                new EventStream.Dispatched("reservation", "r.Q.1a", "{\"reservations\":[]}")));
        assertThat(stream.lastEventId(), is("r.Q.1a"));
        assertThat(stream.retry(), is(Optional.of(Duration.ofMillis(1000))));
    }

    @Test
    void dataLinesJoinTheIdHoldsAndAnEventWithoutDataIsNotDispatched() {
        List<EventStream.Dispatched> events = read("id: 7\nevent: place\n\n"
                + "data: a\ndata:b\n\n"
                + "retry: soon\nfield-unknown: x\ndata\n\n");
        assertThat(events, contains(new EventStream.Dispatched("message", "7", "a\nb"),
                new EventStream.Dispatched("message", "7", "")));
        assertThat(stream.retry(), is(Optional.empty()));
    }
}
