/**
 * The seckill client: a MicroProfile REST Client of the public and admin HTTP API, typed records for
 * its requests and answers, problem+json turned into typed exceptions, and a buyer that speaks the
 * flash-sale protocol (Retry-After, one request id across retries, look up instead of guessing); and
 * what the other side signs in a rehearsal: payment callbacks ({@code PaymentSigner}) and buyer
 * tokens ({@code TokenMint}), and the edge's mark of a shadow sale's traffic ({@code RehearsalMark}).
 * It depends on no server module; a REST Client implementation and a JSON-B provider come from the
 * application that uses it.
 */
module seckill.client {
    requires transitive microprofile.rest.client.api;
    requires transitive jakarta.ws.rs;
    requires jakarta.json;
    // the waiting line's event stream (QueueEvents)
    requires java.net.http;
    requires static jakarta.json.bind;
    requires com.nimbusds.jose.jwt;

    exports seckill.client;
    // JSON-B reads and writes the records reflectively
    opens seckill.client;
}
