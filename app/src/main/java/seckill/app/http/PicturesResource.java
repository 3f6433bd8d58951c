package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * SKU pictures as static content ({@link Pictures}): cached by browsers and the edge for
 * {@code seckill.pictures.max-age-seconds} (a day), then revalidated by {@code ETag} (the content's
 * hash), so a picture replaced on disk reaches buyers within that time. Served as the type its bytes
 * are, never sniffed, and with a policy that lets nothing in it run.
 */
@Path("/pictures/{file}")
@ApplicationScoped
public class PicturesResource {

    private final Pictures pictures;
    private final long maxAge;

    @Inject
    PicturesResource(Pictures pictures,
                     @ConfigProperty(name = "seckill.pictures.max-age-seconds", defaultValue = "86400") long maxAge) {
        this.pictures = pictures;
        this.maxAge = maxAge;
    }

    @GET
    public Response picture(@PathParam("file") String file, @HeaderParam("If-None-Match") String ifNoneMatch) {
        Pictures.Picture picture = pictures.find(file)
                .orElseThrow(() -> new Problem(404, "NOT_FOUND", "Not found", "No such picture."));
        Response.ResponseBuilder response = picture.etag().equals(ifNoneMatch) ? Response.notModified()
                : Response.ok(picture.bytes()).type(picture.type());
        return response.header("Cache-Control", "public, max-age=" + maxAge)
                .header("ETag", picture.etag())
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "default-src 'none'; sandbox")
                .build();
    }

    /** Where a SKU's picture is served. */
    static String pathOf(String file) {
        return "/pictures/" + file;
    }
}
