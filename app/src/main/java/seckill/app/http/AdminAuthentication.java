package seckill.app.http;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import seckill.app.infra.AdminToken;

/**
 * The one check of the admin token, for every resource marked {@link AdminOnly}: before the body is
 * read or the resource runs, a request without {@code Authorization: Bearer <seckill.admin.token>}
 * is answered {@code 401 UNAUTHENTICATED} with a {@code WWW-Authenticate} challenge.
 */
@Provider
@AdminOnly
@Priority(Priorities.AUTHENTICATION)
public class AdminAuthentication implements ContainerRequestFilter {

    private final AdminToken token;

    @Inject
    public AdminAuthentication(AdminToken token) {
        this.token = token;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (!token.admits(request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            request.abortWith(new Problem(401, "UNAUTHENTICATED", "Unauthenticated",
                    "This endpoint needs 'Authorization: Bearer <seckill.admin.token>'.")
                    .header("WWW-Authenticate", "Bearer realm=\"seckill-admin\"")
                    .toResponse(request.getUriInfo().getRequestUri().getPath()));
        }
    }
}
