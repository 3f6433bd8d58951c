package seckill.app.http;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import seckill.app.identity.IdentitySettings;
import seckill.client.TokenMint;

/**
 * {@code POST /api/v1/dev/sign-in {"userId":42}}: the dev mode's stand-in for an identity provider,
 * so the buyer's page and a developer's curl get a real bearer token, signed with the dev key and
 * verified like any other. On only with {@code seckill.identity.dev-sign-in=true}, which only dev
 * mode supplies; otherwise {@code 404}, as if it did not exist.
 */
@Path("/api/v1/dev/sign-in")
@ApplicationScoped
public class DevSignInResource {

    private final IdentitySettings settings;
    private final Clock clock;
    private final Optional<TokenMint> mint;

    @Inject
    DevSignInResource(IdentitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.mint = settings.devSignIn()
                ? settings.hmacKeys().entrySet().stream().findFirst()
                        .map(k -> new TokenMint(k.getKey(), k.getValue(), settings.issuer(), settings.audience()))
                : Optional.empty();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String signIn(String body) {
        TokenMint signer = mint.orElseThrow(() -> new Problem(404, "NOT_FOUND", "Not found",
                "No resource at this path."));
        JsonBody json = JsonBody.parse(body);
        long userId = json.integer("userId", true, 1, 999_999_999_999_999_999L).orElse(0L);
        json.check();
        Instant now = clock.instant();
        return Jsons.PROVIDER.createObjectBuilder()
                .add("token", signer.mint(userId, now, settings.devTokenTtl()))
                .add("userId", userId)
                .add("expiresAt", now.plus(settings.devTokenTtl()).toString())
                .build().toString();
    }
}
