/**
 * The chaos drill's judge: the history of a run (JSON lines: what every client sent and was told,
 * every fault with its start and end), and a checker that decides each of the service's promises
 * from that history, plain SQL on the ledger's tables and plain Redis reads. It imports no server
 * module on purpose: a checker that shared the service's code would share its mistakes.
 */
module seckill.chaos {
    requires transitive java.sql;
    requires transitive redis.clients.jedis;
    requires jakarta.json;

    exports seckill.chaos.api;
}
