package seckill.app.infra;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** What a logged store address keeps and what it hides. */
class RedactedAddressTest {

    @Test
    void credentialParametersAreMaskedTheRestKept() {
        assertThat(RedactedAddress.of("jdbc:mysql://db:3306/seckill?user=app&password=s3cret&useSSL=true"),
                is("jdbc:mysql://db:3306/seckill?user=***&password=***&useSSL=true"));
        assertThat(RedactedAddress.of("jdbc:mysql://(host=db,port=3306,password=s3cret)/seckill"),
                is("jdbc:mysql://(host=db,port=3306,password=***)/seckill"));
        assertThat(RedactedAddress.of("jdbc:mysql://db/seckill?PASSWORD=s3cret"), is("jdbc:mysql://db/seckill?PASSWORD=***"));
    }

    @Test
    void userInfoOfAnyStoreUrlIsMasked() {
        assertThat(RedactedAddress.of("jdbc:mysql://app:s3cret@db:3306/seckill"), is("jdbc:mysql://***@db:3306/seckill"));
        assertThat(RedactedAddress.of("redis://default:s3cret@cache:6379/2"), is("redis://***@cache:6379/2"));
        assertThat(RedactedAddress.of("redis-cluster://s3cret@n1:7000,n2:7001"), is("redis-cluster://***@n1:7000,n2:7001"));
        assertThat(RedactedAddress.of("redis-sentinel://u:s3cret@s1:26379,s2:26379/mymaster"),
                is("redis-sentinel://***@s1:26379,s2:26379/mymaster"));
        assertThat(RedactedAddress.of("redis://127.0.0.1:6379"), is("redis://127.0.0.1:6379"));
    }
}
