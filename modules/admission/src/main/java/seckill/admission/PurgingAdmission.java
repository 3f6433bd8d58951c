package seckill.admission;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.admission.api.AdmissionPurge;
import seckill.redis.RehearsalKeys;

/** {@link AdmissionPurge}: sold out on the rehearsal channel, then the rehearsal's admission keys deleted. */
@ApplicationScoped
class PurgingAdmission implements AdmissionPurge {

    private final UnifiedJedis redis;
    private final SoldOutBroadcast soldOut;

    @Inject
    PurgingAdmission(UnifiedJedis redis, SoldOutBroadcast soldOut) {
        this.redis = redis;
        this.soldOut = soldOut;
    }

    @Override
    public long purge(long rehearsalId, List<Long> skuIds) {
        List<String> patterns = patterns(rehearsalId);
        skuIds.forEach(sku -> soldOut.soldOut(rehearsalId, sku));
        return RehearsalKeys.delete(redis, patterns);
    }

    static List<String> patterns(long rehearsalId) {
        return List.of(RehearsalKeys.pattern(rehearsalId, "tok:{a", ":*"),
                RehearsalKeys.pattern(rehearsalId, "chal:{a", ":*"),
                RehearsalKeys.pattern(rehearsalId, "{rl:a", ":*"));
    }
}
