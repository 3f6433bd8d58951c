package seckill.app.http;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.json.JsonException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import seckill.ledger.api.LedgerUnavailable;

/**
 * Writes every failure of the HTTP edge as {@code application/problem+json}: our own
 * {@link Problem}s as they are, JAX-RS errors with their status, a database outage as a 503 with
 * {@code Retry-After}, anything unexpected as a 500
 * whose details go to the log, not to the client.
 */
@Provider
public class ProblemMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class.getName());
    private static final java.time.Duration LEDGER_RETRY_AFTER = java.time.Duration.ofSeconds(5);

    @Context
    UriInfo uriInfo;

    @Override
    public Response toResponse(Throwable failure) {
        if (failure instanceof NotFoundException notFound) {
            // an empty 404 lets Helidon route on to /health, /metrics and /openapi, which live outside Jersey
            return notFound.getResponse();
        }
        return of(failure).toResponse(uriInfo == null ? null : uriInfo.getRequestUri().getPath());
    }

    /** The problem a failure is answered with (also by the purchase route, which runs outside JAX-RS). */
    static Problem of(Throwable failure) {
        return switch (failure) {
            case Problem p -> p;
            // a Problem raised while the entity was read (BodyLimits) reaches us wrapped by the reader
            case Throwable t when causeProblem(t) != null -> causeProblem(t);
            case Throwable t when LedgerUnavailable.isOutage(t) -> new Problem(503, "DATABASE_UNAVAILABLE",
                    "Temporarily unavailable", "The order ledger cannot answer right now; reservations already "
                    + "accepted are kept and become orders when it is back.", LEDGER_RETRY_AFTER);
            case TimeoutException e -> new Problem(503, "TIMEOUT", "Took too long",
                    "The operation did not finish in time; nothing is lost, ask again.", LEDGER_RETRY_AFTER);
            case BulkheadException e -> new Problem(409, "ALREADY_RUNNING", "Already running",
                    "The same work is running on this instance right now; ask again shortly.",
                    java.time.Duration.ofSeconds(2));
            case NotAllowedException e -> new Problem(405, "METHOD_NOT_ALLOWED", "Method not allowed",
                    "This resource does not support that method.");
            case NotSupportedException e -> new Problem(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type",
                    "Send the body as application/json.");
            case JsonException e -> new Problem(400, "INVALID_REQUEST", "Invalid request", "The body is not valid JSON.");
            case WebApplicationException e -> new Problem(e.getResponse().getStatus(), "HTTP_" + e.getResponse().getStatus(),
                    e.getResponse().getStatusInfo().getReasonPhrase(), e.getMessage());
            default -> {
                LOG.log(Level.SEVERE, "unexpected failure", failure);
                yield new Problem(500, "INTERNAL", "Internal error", "Something went wrong on our side.");
            }
        };
    }

    private static Problem causeProblem(Throwable failure) {
        for (Throwable t = failure.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof Problem problem) {
                return problem;
            }
        }
        return null;
    }
}
