/* Iteration annotations of vLLM, SGLang and ATOM steps: the sums of
 * query/key lengths an inference attention model needs. */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "core/roofline/iterann.h"

#define NUM_MAX ((int64_t)1 << 62)

/* Digits at *p into *v; advances *p. False when there are none or the
 * number does not fit. */
static bool take_num(const char **p, int64_t *v)
{
    const char *s = *p;
    int64_t x = 0;
    if (!isdigit((unsigned char)*s))
        return false;
    for (; isdigit((unsigned char)*s); s++) {
        int d = *s - '0';
        if (x > (NUM_MAX - d) / 10) /* checked before it can wrap */
            return false;
        x = x * 10 + d;
    }
    *v = x;
    *p = s;
    return true;
}

static bool take_lit(const char **p, const char *lit)
{
    size_t n = strlen(lit);
    if (strncmp(*p, lit, n) != 0)
        return false;
    *p += n;
    return true;
}

/* "(sqAskBsqsqCsqskD)" */
static bool take_sums(const char **p, int64_t *sq, int64_t *sk, int64_t *sqsq, int64_t *sqsk)
{
    return take_lit(p, "(sq") && take_num(p, sq) && take_lit(p, "sk") && take_num(p, sk) &&
           take_lit(p, "sqsq") && take_num(p, sqsq) && take_lit(p, "sqsk") && take_num(p, sqsk) &&
           take_lit(p, ")");
}

/* vLLM: execute_N_context_R(sums)_generation_R(sums), matched from the
 * start of the name (what follows is not looked at). */
static bool parse_vllm(const char *s, struct iterann *o)
{
    int64_t skip;
    return take_lit(&s, "execute_") && take_num(&s, &skip) && take_lit(&s, "_context_") &&
           take_num(&s, &o->c_n) && take_sums(&s, &o->c_sq, &o->c_sk, &o->c_sqsq, &o->c_sqsk) &&
           take_lit(&s, "_generation_") && take_num(&s, &o->g_n) &&
           take_sums(&s, &o->g_sq, &o->g_sk, &o->g_sqsq, &o->g_sqsk);
}

/* The integer value of key=digits within [b, e), the key a whole word;
 * 0 when absent (as TraceLens defaults it). False when a value does not
 * fit. */
static bool kv_num(const char *b, const char *e, const char *key, int64_t *v)
{
    size_t n = strlen(key);
    *v = 0;
    for (const char *p = b; p + n < e; p++) {
        if (strncmp(p, key, n) != 0 || p[n] != '=')
            continue;
        if (p > b && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p + n + 1;
        int64_t x;
        if (!isdigit((unsigned char)*q))
            return true; /* TraceLens's int() of a non-number is 0 */
        if (!take_num(&q, &x))
            return false;
        *v = x;
        return true;
    }
    return true;
}

/* Whether [b, e) holds "sqsq=" followed by a digit. */
static bool has_sqsq(const char *b, const char *e)
{
    for (const char *p = b; p + 5 < e; p++)
        if (strncmp(p, "sqsq=", 5) == 0 && isdigit((unsigned char)p[5]))
            return true;
    return false;
}

/* SGLang: step[EXTEND|DECODE|MIXED ... c_sq=.. g_sqsk=..]. */
static bool parse_sglang(const char *s, struct iterann *o)
{
    if (!take_lit(&s, "step["))
        return false;
    if (!take_lit(&s, "EXTEND") && !take_lit(&s, "DECODE") && !take_lit(&s, "MIXED"))
        return false;
    if (isalnum((unsigned char)*s) || *s == '_')
        return false;
    const char *e = strchr(s, ']');
    if (!e || !has_sqsq(s, e))
        return false;
    return kv_num(s, e, "c_sq", &o->c_sq) && kv_num(s, e, "c_sk", &o->c_sk) &&
           kv_num(s, e, "c_sqsq", &o->c_sqsq) && kv_num(s, e, "c_sqsk", &o->c_sqsk) &&
           kv_num(s, e, "g_sq", &o->g_sq) && kv_num(s, e, "g_sk", &o->g_sk) &&
           kv_num(s, e, "g_sqsq", &o->g_sqsq) && kv_num(s, e, "g_sqsk", &o->g_sqsk) &&
           kv_num(s, e, "c", &o->c_n) && kv_num(s, e, "g", &o->g_n);
}

/* ATOM: prefill[bs=.. tok=.. ... sqsq=.. sqsk=.. sk=..] or decode[...]:
 * the sums of the one phase it names. */
static bool parse_atom(const char *s, struct iterann *o)
{
    bool prefill = take_lit(&s, "prefill[");
    if (!prefill && !take_lit(&s, "decode["))
        return false;
    const char *e = strrchr(s, ']');
    if (!e || !has_sqsq(s, e) || !strstr(s, "sqsk="))
        return false;
    int64_t tok, sk, sqsq, sqsk, bs;
    if (!kv_num(s, e, "tok", &tok) || !kv_num(s, e, "sk", &sk) || !kv_num(s, e, "sqsq", &sqsq) ||
        !kv_num(s, e, "sqsk", &sqsk) || !kv_num(s, e, "bs", &bs))
        return false;
    if (prefill) {
        o->c_sq = tok, o->c_sk = sk, o->c_sqsq = sqsq, o->c_sqsk = sqsk, o->c_n = bs;
    } else {
        o->g_sq = tok, o->g_sk = sk, o->g_sqsq = sqsq, o->g_sqsk = sqsk, o->g_n = bs;
    }
    return true;
}

bool iterann_parse(const char *name, struct iterann *out)
{
    memset(out, 0, sizeof(*out));
    if (!name)
        return false;
    /* TraceLens's priority: vLLM's form, then SGLang's, then ATOM's. */
    if (parse_vllm(name, out))
        return true;
    memset(out, 0, sizeof(*out));
    if (parse_sglang(name, out))
        return true;
    memset(out, 0, sizeof(*out));
    if (parse_atom(name, out))
        return true;
    memset(out, 0, sizeof(*out));
    return false;
}
