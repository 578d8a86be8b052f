/* Substring and regex name patterns with per-string memoization. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "tui/frame/pattern.h"

void pattern_clear(struct pattern *p)
{
    if (p->regex)
        regfree(&p->re);
    free(p->text);
    free(p->needle);
    free(p->memo);
    memset(p, 0, sizeof(*p));
}

static bool has_upper(const char *s)
{
    for (; *s; s++)
        if (isupper((unsigned char)*s))
            return true;
    return false;
}

bool pattern_set(struct pattern *p, const char *text, char *err, size_t n)
{
    pattern_clear(p);
    if (!text || !*text)
        return true;
    const char *body = text;
    bool want_regex = strpbrk(text, "^$*+?()[]{}|\\") != NULL;
    if (strncmp(text, "re:", 3) == 0) {
        body = text + 3;
        want_regex = true;
    } else if (text[0] == '=') {
        body = text + 1;
        want_regex = false;
    }
    if (!*body)
        return true;
    bool icase = !has_upper(body);
    if (want_regex) {
        int rc = regcomp(&p->re, body, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
        if (rc != 0) {
            char msg[128];
            regerror(rc, &p->re, msg, sizeof(msg));
            snprintf(err, n, "bad regex: %s", msg);
            return false;
        }
        p->regex = true;
    }
    p->text = xstrdup(text);
    p->needle = xstrdup(body);
    p->icase = icase;
    if (icase)
        for (char *c = p->needle; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    return true;
}

static bool contains_lower(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    char first = needle[0];
    for (const char *h = hay; *h; h++) {
        if ((char)tolower((unsigned char)*h) != first)
            continue;
        size_t i = 1;
        while (i < n && h[i] && (char)tolower((unsigned char)h[i]) == needle[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

bool pattern_match(const struct pattern *p, const char *s)
{
    if (!p->text)
        return true;
    if (p->regex)
        return regexec(&p->re, s, 0, NULL, 0) == 0;
    return p->icase ? contains_lower(s, p->needle) : strstr(s, p->needle) != NULL;
}

bool pattern_match_id(struct pattern *p, uint32_t id, const char *s, size_t count)
{
    if (!p->text)
        return true;
    if (p->memo_n < count) {
        p->memo = xreallocarray(p->memo, count, 1);
        memset(p->memo + p->memo_n, 0, count - p->memo_n);
        p->memo_n = count;
    }
    if (id >= p->memo_n)
        return pattern_match(p, s);
    if (!p->memo[id])
        p->memo[id] = pattern_match(p, s) ? 2 : 1;
    return p->memo[id] == 2;
}

size_t pattern_next_hit(const bool *hit, size_t n, size_t cur, int dir, size_t *rank, size_t *total,
                        bool *wrapped)
{
    *rank = *total = 0;
    *wrapped = false;
    size_t found = SIZE_MAX;
    for (size_t k = 1; k <= n && found == SIZE_MAX; k++) {
        size_t i = dir >= 0 ? (cur + k) % n : (cur + n - k % n) % n;
        if (hit[i])
            found = i;
    }
    if (found == SIZE_MAX)
        return found;
    for (size_t i = 0; i < n; i++) {
        *total += hit[i];
        *rank += hit[i] && i <= found;
    }
    *wrapped = dir >= 0 ? found <= cur : found >= cur;
    return found;
}
