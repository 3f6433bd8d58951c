package seckill.client;

import java.time.Duration;
import java.util.Optional;

/**
 * Reads {@code text/event-stream} line by line as the HTML standard's Server-Sent Events parsing says: fields
 * {@code id}, {@code event}, {@code data} (lines joined by a newline), {@code retry} (ms); lines starting with a
 * colon are comments (keep-alives); an empty line dispatches the event gathered so far. The last id holds across
 * events until another is given (it is what a reconnect sends as {@code Last-Event-ID}).
 */
final class EventStream {

    /** An event as dispatched: its type ({@code message} when none was named), last id, and data. */
    record Dispatched(String type, String id, String data) {
    }

    private String lastEventId;
    private String type = "";
    private StringBuilder data = new StringBuilder();
    private boolean hasData;
    private Duration retry;

    /** One line (without its end of line); the event it completes, if it is an empty line after data. */
    Optional<Dispatched> line(String line) {
        if (line.isEmpty()) {
            Optional<Dispatched> event = hasData
                    ? Optional.of(new Dispatched(type.isEmpty() ? "message" : type, lastEventId, data.toString()))
                    : Optional.empty();
            type = "";
            data = new StringBuilder();
            hasData = false;
            return event;
        }
        if (line.startsWith(":")) {
            return Optional.empty();
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "event" -> type = value;
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
                    retry = Duration.ofMillis(Long.parseLong(value));
                }
            }
            default -> {
                // unknown fields are ignored
            }
        }
        return Optional.empty();
    }

    String lastEventId() {
        return lastEventId;
    }

    Optional<Duration> retry() {
        return Optional.ofNullable(retry);
    }
}
