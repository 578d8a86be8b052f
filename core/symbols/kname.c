/* Simplified kernel names: C++ signatures folded to the part that tells
 * kernels apart (see kname.h for the rules). */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/demangle.h"
#include "core/symbols/kname.h"
#include "core/base/xalloc.h"

#define ELL "\xe2\x80\xa6" /* U+2026, marks what was left out */
#define ELL_LEN 3
#define VERBATIM_MAX 40 /* template argument lists up to this long stay */
#define MAX_DEPTH 8     /* nesting of kept arguments */
#define MAX_GROUP 256   /* bracket nesting the scanner follows */

static bool is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static bool is_ell(const char *s, size_t n, size_t i)
{
    return i + ELL_LEN <= n && memcmp(s + i, ELL, ELL_LEN) == 0;
}

/* Length of the operator token ("operator()", "operator<<", "operator new[]",
 * "operator int") at s[i], or 0 when none starts there. */
static size_t operator_len(const char *s, size_t n, size_t i)
{
    if (i + 8 > n || memcmp(s + i, "operator", 8) != 0 || (i > 0 && is_ident(s[i - 1])))
        return 0;
    size_t j = i + 8;
    if (j < n && is_ident(s[j]))
        return 0; /* an identifier such as operator_foo */
    if (j + 1 < n && ((s[j] == '(' && s[j + 1] == ')') || (s[j] == '[' && s[j + 1] == ']')))
        return j + 2 - i;
    if (j < n && s[j] == ' ') {
        size_t k = j + 1;
        while (k < n && is_ident(s[k]))
            k++;
        if (k == j + 1)
            return 8;
        if (k + 1 < n && s[k] == '[' && s[k + 1] == ']')
            k += 2;
        return k - i;
    }
    size_t k = j;
    while (k < n && strchr("+-*/%^&|~!=<>,", s[k]))
        k++;
    return k - i;
}

static char closer_of(char c)
{
    return c == '<' ? '>' : c == '(' ? ')' : c == '{' ? '}' : ']';
}

/* s[i] opens a group; the index just after its closer (n when unclosed).
 * Operator tokens and "->" are not brackets. A closer that matches an
 * outer group closes the groups inside it too. */
static size_t skip_group(const char *s, size_t n, size_t i)
{
    char stack[MAX_GROUP];
    size_t depth = 0;
    for (size_t k = i; k < n; k++) {
        char c = s[k];
        size_t ol;
        if (c == 'o' && (ol = operator_len(s, n, k)) > 0) {
            k += ol - 1;
            continue;
        }
        if (c == '-' && k + 1 < n && s[k + 1] == '>') {
            k++;
            continue;
        }
        if (c == '<' || c == '(' || c == '{' || c == '[') {
            if (depth == MAX_GROUP)
                return n;
            stack[depth++] = closer_of(c);
        } else if (c == '>' || c == ')' || c == '}' || c == ']') {
            size_t d = depth;
            while (d > 0 && stack[d - 1] != c)
                d--;
            if (d == 0)
                continue; /* stray closer: ignore */
            depth = d - 1;
            if (depth == 0)
                return k + 1;
        }
    }
    return n;
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

static bool span_eq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n == m && memcmp(s, lit, m) == 0;
}

static bool ends_with(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n >= m && memcmp(s + n - m, lit, m) == 0;
}

static bool in_list(const char *s, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (span_eq(s, n, *list))
            return true;
    return false;
}

/* ------------------------------------------------------------------------ */
/* Candidates inside one template argument                                  */
/* ------------------------------------------------------------------------ */

/* Functors that only wrap the interesting one. */
static const char *const generic_functors[] = {
    "BinaryFunctor", "AUnaryFunctor", "BUnaryFunctor", "UnaryFunctor", "ReduceOp", NULL,
};

/* Functions whose lambdas wrap the real kernel body. */
static const char *const wrapper_functions[] = {
    "gpu_kernel_impl",
    "gpu_kernel_impl_nocast",
    "gpu_kernel",
    "gpu_kernel_nocast",
    "gpu_index_kernel",
    "gpu_kernel_with_scalars",
    "opmath_gpu_kernel_with_scalars",
    "opmath_symmetric_gpu_kernel_with_scalars",
    "launch_vectorized_kernel",
    "launch_legacy_kernel",
    "launch_unrolled_kernel",
    "lambda",
    NULL,
};

/* Class types that never tell kernels apart. */
static const char *const boring_types[] = {
    "Array",
    "array",
    "OffsetCalculator",
    "TrivialOffsetCalculator",
    "LoadWithoutCast",
    "StoreWithoutCast",
    "LoadWithCast",
    "StoreWithCast",
    "Half",
    "BFloat16",
    "half",
    "bfloat16",
    "bfloat16_t",
    "half_t",
    "complex",
    "RestrictPtrTraits",
    "DefaultPtrTraits",
    "integral_constant",
    NULL,
};

static const char *const builtin_words[] = {
    "int",          "long",          "short",         "char",          "float",
    "double",       "bool",          "void",          "unsigned",      "signed",
    "true",         "false",         "wchar_t",       "char8_t",       "char16_t",
    "char32_t",     "__int128",      "__half",        "__nv_bfloat16", "__hip_bfloat16",
    "hip_bfloat16", "__nv_fp8_e4m3", "__nv_fp8_e5m2", "size_t",        "decltype",
    "sizeof",       "alignof",       "noexcept",      "const",         "volatile",
    NULL,
};

enum cand_kind { CAND_NONE, CAND_FUNCTOR, CAND_FUNCTION, CAND_TAG, CAND_CLASS };

struct cand {
    int score; /* higher wins */
    enum cand_kind kind;
    size_t pos, len;         /* the identifier */
    size_t targs, targs_end; /* its template argument group [targs, targs_end), or 0/0 */
    bool partial;            /* the identifier is not the whole argument */
};

static bool is_functor_name(const char *s, size_t n)
{
    for (size_t i = 0; i + 7 <= n; i++)
        if (memcmp(s + i, "Functor", 7) == 0 || memcmp(s + i, "functor", 7) == 0)
            return true;
    return ends_with(s, n, "Ops") || span_eq(s, n, "ReduceOp");
}

static bool is_tag_name(const char *s, size_t n)
{
    bool digit = false, under = false;
    for (size_t i = 0; i < n; i++) {
        digit |= isdigit((unsigned char)s[i]) != 0;
        under |= s[i] == '_';
    }
    return n >= 12 && digit && under && !isdigit((unsigned char)s[0]);
}

static void consider(struct cand *best, int score, enum cand_kind kind, size_t pos, size_t len,
                     size_t targs, size_t targs_end, bool partial)
{
    if (score > best->score)
        *best = (struct cand){score, kind, pos, len, targs, targs_end, partial};
}

/* Walk the identifiers of a[lo..hi) and keep the best candidate. `head`
 * is true while the walk is still in the argument's leading qualified
 * name at depth 0. */
static void scan_arg(const char *a, size_t lo, size_t hi, size_t arg_end, bool top,
                     struct cand *best)
{
    size_t prev_ident = 0, prev_len = 0;
    bool head = top;
    for (size_t i = lo; i < hi;) {
        char c = a[i];
        size_t ol = c == 'o' ? operator_len(a, hi, i) : 0;
        if (ol || (is_ident(c) && !isdigit((unsigned char)c) && (i == lo || !is_ident(a[i - 1])))) {
            size_t j = ol ? i + ol : i;
            while (!ol && j < hi && is_ident(a[j]))
                j++;
            size_t targs = 0, targs_end = 0, k = j;
            if (k < hi && a[k] == ' ' && k + 1 < hi && a[k + 1] == '<' && ol)
                k++; /* "operator< <int>" */
            if (k < hi && a[k] == '<') {
                targs = k;
                targs_end = skip_group(a, hi, k);
                k = targs_end;
            }
            bool is_fn = k < hi && a[k] == '(';
            bool scoped = i >= lo + 2 && a[i - 1] == ':' && a[i - 2] == ':';
            const char *id = a + i;
            size_t idn = j - i;
            bool whole = head && (k >= arg_end || (k + 1 < hi && a[k] == ':' && a[k + 1] == ':'));
            bool at_end = k >= arg_end;
            if (ol) {
                /* X::operator()(...)::{lambda}: the function is X. */
                if (is_fn && scoped && prev_len &&
                    !in_list(a + prev_ident, prev_len, wrapper_functions))
                    consider(best, 40, CAND_FUNCTION, prev_ident, prev_len, 0, 0, true);
            } else if (is_functor_name(id, idn)) {
                bool generic = in_list(id, idn, generic_functors);
                consider(best, generic ? 15 : 50, CAND_FUNCTOR, i, idn, targs, targs_end,
                         !(whole && at_end));
            } else if (is_fn && !in_list(id, idn, wrapper_functions) &&
                       !in_list(id, idn, builtin_words)) {
                consider(best, 40, CAND_FUNCTION, i, idn, 0, 0, true);
            } else if (head && at_end && !targs && is_tag_name(id, idn)) {
                consider(best, 45, CAND_TAG, i, idn, 0, 0, false);
            } else if (head && at_end && !in_list(id, idn, boring_types) &&
                       !in_list(id, idn, builtin_words) && !is_fn) {
                consider(best, 20, CAND_CLASS, i, idn, targs, targs_end, false);
            }
            if (in_list(id, idn, builtin_words))
                head = false;
            prev_ident = i;
            prev_len = idn;
            if (targs)
                scan_arg(a, targs + 1, targs_end - 1, arg_end, false, best);
            i = k;
            if (is_fn) {
                i = skip_group(a, hi, k); /* parameters never name the kernel */
                head = false;
            }
            continue;
        }
        if (c == '{' || c == '(' || c == '[') {
            /* lambdas, "(anonymous namespace)", casts such as "(Kind)2" */
            bool anon = c == '(' && i + 21 <= hi && memcmp(a + i, "(anonymous namespace)", 21) == 0;
            i = skip_group(a, hi, i);
            if (!anon)
                head = false;
            continue;
        }
        if (c == ':' && i + 1 < hi && a[i + 1] == ':') {
            i += 2;
            continue;
        }
        if (!isspace((unsigned char)c))
            head = false;
        i++;
    }
}

/* ------------------------------------------------------------------------ */
/* Template argument lists and qualified names                              */
/* ------------------------------------------------------------------------ */

static void simplify_targs(struct strbuf *out, const char *t, size_t n, int depth);

struct arg {
    size_t pos, len;
    bool cut_before; /* a "…" marker stands just before it */
};

/* Whether a template argument list is short and flat enough to keep. */
static bool plain_targs(const char *t, size_t n)
{
    trim(&t, &n);
    if (n > VERBATIM_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '<' || t[i] == '(' || t[i] == '{' || is_ell(t, n, i))
            return false;
    return true;
}

static void simplify_targs(struct strbuf *out, const char *t, size_t n, int depth)
{
    trim(&t, &n);
    if (plain_targs(t, n)) {
        sb_putc(out, '<');
        sb_putn(out, t, n);
        sb_putc(out, '>');
        return;
    }
    if (depth >= MAX_DEPTH) {
        sb_puts(out, "<" ELL ">");
        return;
    }
    /* Split at depth-0 commas and "…" markers. */
    struct arg args[64];
    size_t nargs = 0;
    bool cut = false, cut_end = false, more = false;
    size_t start = 0;
    for (size_t i = 0; i <= n;) {
        bool at_end = i == n;
        bool ell = !at_end && is_ell(t, n, i);
        if (at_end || ell || t[i] == ',') {
            const char *s = t + start;
            size_t len = i - start;
            trim(&s, &len);
            if (len) {
                if (nargs < ARRAY_SIZE(args))
                    args[nargs++] = (struct arg){(size_t)(s - t), len, cut};
                else
                    more = true;
                cut = false;
            }
            if (ell)
                cut = true;
            if (at_end) {
                cut_end = cut;
                break;
            }
            i += ell ? ELL_LEN : 1;
            start = i;
            continue;
        }
        size_t ol = t[i] == 'o' ? operator_len(t, n, i) : 0;
        if (ol)
            i += ol;
        else if (t[i] == '<' || t[i] == '(' || t[i] == '{' || t[i] == '[')
            i = skip_group(t, n, i);
        else
            i++;
    }

    size_t besti = 0;
    struct cand best = {0};
    for (size_t k = 0; k < nargs; k++) {
        struct cand c = {0};
        scan_arg(t, args[k].pos, args[k].pos + args[k].len, args[k].pos + args[k].len, true, &c);
        if (c.score > best.score) {
            best = c;
            besti = k;
        }
    }
    sb_putc(out, '<');
    if (best.kind == CAND_NONE) {
        if (nargs || cut || cut_end)
            sb_puts(out, ELL);
        sb_putc(out, '>');
        return;
    }
    bool before = besti > 0 || args[besti].cut_before;
    bool after = besti + 1 < nargs || more || cut_end || best.partial;
    if (before)
        sb_puts(out, ELL);
    sb_putn(out, t + best.pos, best.len);
    if (best.targs) {
        const char *inner = t + best.targs + 1;
        size_t e = best.targs_end; /* just past the '>', or the end when unclosed */
        size_t innern =
            e > best.targs + 1 && t[e - 1] == '>' ? e - best.targs - 2 : e - best.targs - 1;
        if (best.kind == CAND_CLASS && !plain_targs(inner, innern))
            sb_puts(out, "<" ELL ">"); /* a class's arguments: only when short */
        else
            simplify_targs(out, inner, innern, depth + 1);
    }
    if (after)
        sb_puts(out, ELL);
    sb_putc(out, '>');
}

/* One component of a qualified name: its base name and simplified template
 * arguments; parameter lists of local functions are dropped. */
static void simplify_component(struct strbuf *out, const char *c, size_t n, int depth)
{
    size_t i = 0;
    while (i < n) {
        size_t ol = c[i] == 'o' ? operator_len(c, n, i) : 0;
        if (ol) {
            i += ol;
            continue;
        }
        if (c[i] == '{' || c[i] == '[') {
            i = skip_group(c, n, i);
            continue;
        }
        if (c[i] == '<' || c[i] == '(')
            break;
        i++;
    }
    const char *base = c;
    size_t bn = i;
    trim(&base, &bn);
    sb_putn(out, base, bn);
    if (i < n && c[i] == '<') {
        if (bn && base[bn - 1] == '<')
            sb_putc(out, ' '); /* "operator< <int>" */
        size_t e = skip_group(c, n, i);
        size_t inner = e > i + 1 && c[e - 1] == '>' ? e - i - 2 : e - i - 1;
        simplify_targs(out, c + i + 1, inner, depth);
    }
}

static void simplify_qualified(struct strbuf *out, const char *s, size_t n)
{
    bool first = true;
    size_t start = 0;
    for (size_t i = 0; i <= n;) {
        if (i == n || (s[i] == ':' && i + 1 < n && s[i + 1] == ':')) {
            const char *c = s + start;
            size_t len = i - start;
            trim(&c, &len);
            if (len && !span_eq(c, len, "(anonymous namespace)")) {
                size_t mark = out->len;
                if (!first)
                    sb_puts(out, "::");
                size_t body = out->len;
                simplify_component(out, c, len, 0);
                if (out->len == body) {
                    /* Nothing shown (a bare group): no "::" for it either,
                     * so that simplifying again changes nothing. */
                    out->len = mark;
                    if (out->s)
                        out->s[mark] = '\0';
                } else {
                    first = false;
                }
            }
            if (i == n)
                break;
            i += 2;
            start = i;
            continue;
        }
        size_t ol = s[i] == 'o' ? operator_len(s, n, i) : 0;
        if (ol)
            i += ol;
        else if (s[i] == '<' || s[i] == '(' || s[i] == '{' || s[i] == '[')
            i = skip_group(s, n, i);
        else
            i++;
    }
}

/* Strip " [clone .x]" and trailing qualifiers of a signature. */
static size_t strip_suffixes(const char *s, size_t n)
{
    static const char *const quals[] = {" const", " volatile", " &&", " &", " noexcept", NULL};
    for (;;) {
        while (n && isspace((unsigned char)s[n - 1]))
            n--;
        if (n && s[n - 1] == ']') {
            size_t k = n;
            while (k > 8 && memcmp(s + k - 8, " [clone ", 8) != 0)
                k--;
            if (k > 8) {
                n = k - 8;
                continue;
            }
        }
        bool again = false;
        for (const char *const *q = quals; *q; q++)
            if (ends_with(s, n, *q)) {
                n -= strlen(*q);
                again = true;
                break;
            }
        if (!again)
            return n;
    }
}

static void simplify_signature(struct strbuf *out, const char *s, size_t n)
{
    n = strip_suffixes(s, n);
    /* Depth-0 scan: the last parameter list, the last space, "::" and '<'. */
    size_t params = n, last_space = n;
    bool scoped = false, angle = false;
    for (size_t i = 0; i < n;) {
        size_t ol = s[i] == 'o' ? operator_len(s, n, i) : 0;
        if (ol) {
            i += ol;
            if (i + 1 < n && s[i] == ' ' && s[i + 1] == '<')
                i++; /* "operator< <int>": the space belongs to the name */
            continue;
        }
        char c = s[i];
        if (c == '<' || c == '(' || c == '{' || c == '[') {
            size_t e = skip_group(s, n, i);
            if (c == '(' && e == n && i > 0 &&
                (is_ident(s[i - 1]) || s[i - 1] == '>' || s[i - 1] == ')' || s[i - 1] == ']'))
                params = i;
            angle |= c == '<';
            i = e;
            continue;
        }
        if (c == ' ' && params == n)
            last_space = i;
        if (c == ':' && i + 1 < n && s[i + 1] == ':')
            scoped = true;
        i++;
    }
    size_t start = 0;
    if (params < n) {
        n = params;
        if (last_space < n)
            start = last_space + 1;
    } else if ((!scoped && !angle) || last_space < n) {
        sb_putn(out, s, n); /* not a C++ name: keep it */
        return;
    }
    simplify_qualified(out, s + start, n - start);
}

/* The qualified name at the start of a mangled name that no demangler
 * here reads (C++20 template parameter declarations such as "Tn" are newer
 * than Debian's libiberty): "_ZN7sgl_hip10activation18act_and_mul_kernelI..."
 * -> "sgl_hip::activation::act_and_mul_kernel". Reads "_Z", an optional
 * "L" (internal linkage), "N" with its cv / ref qualifiers, "St" (std::)
 * and source names (<length><identifier>), and stops at the first thing
 * that is none of them; "_GLOBAL__N" (an anonymous namespace) is left out
 * as "(anonymous namespace)" is. False when no name was read (out
 * untouched). */
static bool mangled_prefix_put(struct strbuf *out, const char *s, size_t n)
{
    size_t i = 2;
    bool any = false;
    if (i < n && s[i] == 'L')
        i++;
    if (i < n && s[i] == 'N') {
        i++;
        while (i < n && (s[i] == 'r' || s[i] == 'V' || s[i] == 'K' || s[i] == 'R' || s[i] == 'O'))
            i++;
    }
    if (i + 1 < n && s[i] == 'S' && s[i + 1] == 't') {
        sb_puts(out, "std");
        any = true;
        i += 2;
    }
    while (i < n && isdigit((unsigned char)s[i])) {
        size_t len = 0;
        while (i < n && isdigit((unsigned char)s[i]) && len <= n)
            len = len * 10 + (size_t)(s[i++] - '0');
        if (len == 0 || len > n - i)
            break;
        if (!(len >= 10 && memcmp(s + i, "_GLOBAL__N", 10) == 0)) {
            if (any)
                sb_puts(out, "::");
            sb_putn(out, s + i, len);
            any = true;
        }
        i += len;
    }
    return any; /* nothing was written when none was read */
}

void kname_simplify_put(struct strbuf *out, const char *name, size_t n)
{
    trim(&name, &n);
    size_t mark = out->len;
    char *dem = NULL;
    bool prefix = false; /* out holds the qualified name a mangling starts with */
    if (n > 2 && name[0] == '_' && name[1] == 'Z') {
        char *copy = xstrndup(name, n);
        dem = demangle(copy);
        free(copy);
        prefix = !dem && mangled_prefix_put(out, name, n);
    }
    const char *s = dem ? dem : name;
    size_t sn = dem ? strlen(dem) : n;
    if (!prefix)
        simplify_signature(out, s, sn);
    if (out->len - mark > sn) {
        /* Only a malformed name (an unclosed '<'), or a mangled one cut off
         * after many short components (its "::" longer than their length
         * digits), comes out longer than it went in: keep it as it is. */
        out->len = mark;
        out->s[mark] = '\0';
    }
    if (out->len == mark)
        sb_putn(out, s, sn);
    free(dem);
}

char *kname_simplify(const char *name)
{
    struct strbuf sb = STRBUF_INIT;
    kname_simplify_put(&sb, name, strlen(name));
    return sb_steal(&sb);
}
