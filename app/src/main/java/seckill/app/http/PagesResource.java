package seckill.app.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The two pages the service serves itself: the buyer's page at {@code /} ({@code /?activity=<id>})
 * and the operations view at {@code /ops}, with their scripts and style under {@code /assets/}.
 * Plain files from the jar, no build step: pages are revalidated on every load ({@code no-cache}
 * with an {@code ETag}, so a fixed page reaches buyers at once), assets are cached for
 * {@code seckill.http.asset-max-age-seconds}. An edge (config/nginx) may cache them in front.
 *
 * <p>Every file goes out with a Content-Security-Policy ({@code seckill.http.content-security-policy}):
 * scripts, styles and requests only from this origin, no inline script, and no framing, so an
 * injected string cannot run as script and another site cannot frame {@code /ops} under a
 * click-jacking overlay ({@code frame-ancestors 'none'}, and {@code X-Frame-Options: DENY} for browsers
 * that predate it). The pages keep no inline script or style for that reason; the captcha is a
 * {@code data:} image. {@code Referrer-Policy} keeps the activity in the page's address from leaking to
 * other sites; {@code nosniff} keeps a browser from running a file as anything but its declared type.
 */
@Path("/")
@ApplicationScoped
public class PagesResource {

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");
    /** Only these files are served: a path never reaches the class path unchecked. */
    private static final java.util.Set<String> ASSETS = java.util.Set.of("buyer.js", "ops.js", "style.css");

    static final String DEFAULT_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final long assetMaxAge;
    private final String contentSecurityPolicy;
    private final String referrerPolicy;
    private final Map<String, Page> pages = new ConcurrentHashMap<>();

    @Inject
    PagesResource(@ConfigProperty(name = "seckill.http.asset-max-age-seconds", defaultValue = "300") long assetMaxAge,
                  @ConfigProperty(name = "seckill.http.content-security-policy", defaultValue = DEFAULT_POLICY)
                  String contentSecurityPolicy,
                  @ConfigProperty(name = "seckill.http.referrer-policy", defaultValue = "no-referrer")
                  String referrerPolicy) {
        this.assetMaxAge = assetMaxAge;
        this.contentSecurityPolicy = contentSecurityPolicy;
        this.referrerPolicy = referrerPolicy;
    }

    @GET
    public Response buyerPage(@HeaderParam("If-None-Match") String etag) {
        return serve("index.html", "no-cache", etag);
    }

    @GET
    @Path("ops")
    public Response operationsView(@HeaderParam("If-None-Match") String etag) {
        return serve("ops.html", "no-cache", etag);
    }

    @GET
    @Path("assets/{file}")
    public Response asset(@PathParam("file") String file, @HeaderParam("If-None-Match") String etag) {
        if (!ASSETS.contains(file)) {
            throw new Problem(404, "NOT_FOUND", "Not found", "No such file.");
        }
        return serve(file, "public, max-age=" + assetMaxAge, etag);
    }

    private Response serve(String file, String cacheControl, String ifNoneMatch) {
        Page page = pages.computeIfAbsent(file, Page::load);
        Response.ResponseBuilder response = page.etag.equals(ifNoneMatch)
                ? Response.notModified()
                : Response.ok(page.bytes).type(page.type);
        return response.header("Cache-Control", cacheControl).header("ETag", page.etag)
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", contentSecurityPolicy)
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", referrerPolicy).build();
    }

    private record Page(byte[] bytes, String type, String etag) {

        static Page load(String file) {
            try (InputStream in = PagesResource.class.getResourceAsStream("pages/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("pages/" + file + " is missing from the jar");
                }
                byte[] bytes = in.readAllBytes();
                String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
                return new Page(bytes, TYPES.get(file.substring(file.lastIndexOf('.') + 1)), "\"" + digest + "\"");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
