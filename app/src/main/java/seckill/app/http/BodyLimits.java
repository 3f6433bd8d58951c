package seckill.app.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Bounds every request body before anything reads it: public endpoints at
 * {@code seckill.http.max-public-body-bytes} (16 KiB), the admin API at
 * {@code seckill.http.max-admin-body-bytes} (1 MiB). A declared {@code Content-Length} over the
 * limit is answered {@code 413 PAYLOAD_TOO_LARGE} at once, unread, with {@code Connection: close};
 * a body without one is cut off the moment it passes the limit. So a 64 MB POST is never read
 * whole, nor HMAC'd, nor parsed. (The web server's own {@code server.max-payload-size} is left
 * unset: it would answer before this filter with a body that is not problem+json.)
 */
@Provider
@Priority(Priorities.AUTHENTICATION - 100)
public class BodyLimits implements ContainerRequestFilter {

    private final long publicLimit;
    private final long adminLimit;

    @Inject
    public BodyLimits(@ConfigProperty(name = "seckill.http.max-public-body-bytes", defaultValue = "16384") long publicLimit,
                      @ConfigProperty(name = "seckill.http.max-admin-body-bytes", defaultValue = "1048576") long adminLimit) {
        this.publicLimit = publicLimit;
        this.adminLimit = adminLimit;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        long limit = path.startsWith("api/v1/admin") || path.startsWith("/api/v1/admin") ? adminLimit : publicLimit;
        String declared = request.getHeaderString("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                request.abortWith(new Problem(400, "INVALID_REQUEST", "Invalid request", "Content-Length is not a number.")
                        .header("Connection", "close").toResponse(request.getUriInfo().getRequestUri().getPath()));
                return;
            }
            if (length > limit) {
                request.abortWith(tooLarge(limit).toResponse(request.getUriInfo().getRequestUri().getPath()));
                return;
            }
        }
        request.setEntityStream(new Bounded(request.getEntityStream(), limit));
    }

    /**
     * The 413 problem: {@code maxBytes} is the limit (issue #32: {@code limit} is a text on a 429, so the
     * contract gives the byte limit its own number field); {@code limit}, the same number, stays for
     * clients that read it before {@code maxBytes} existed.
     */
    static Problem tooLarge(long limit) {
        return new Problem(413, "PAYLOAD_TOO_LARGE", "Payload too large",
                "The body is larger than " + limit + " bytes, the most this endpoint takes.")
                .with("maxBytes", limit).with("limit", limit).header("Connection", "close");
    }

    /** Reads through until the limit is passed, then fails the read with the 413 problem. */
    private static final class Bounded extends FilterInputStream {

        private final long limit;
        private long read;

        Bounded(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, (int) Math.min(length, limit - read + 1));
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw tooLarge(limit);
            }
        }
    }
}
