/* HTA's short names of ops and kernels (shortname.h). */
#include "config.h"

#include "core/diff/shortname.h"

#include <string.h>

void shortname_hta(struct strbuf *out, const char *s, size_t n)
{
    /* A name with no template or argument list stays as it is: HTA's
     * shorten_name returns it unchanged ("## all2all ##" keeps its words,
     * "autograd::engine::evaluate_function: AddBackward0" is not
     * "AddBackward0"). */
    if (!memchr(s, '<', n) && !memchr(s, '(', n)) {
        sb_putn(out, s, n);
        return;
    }
    /* The stack of kept bytes lives in out, after its current end. */
    size_t base = out->len;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            i++;
            continue;
        }
        if (c == '>' || c == ')') {
            char open = c == '>' ? '<' : '(';
            while (out->len > base && out->s[out->len - 1] != open)
                out->len--;
            if (out->len > base)
                out->len--;
            continue;
        }
        sb_putc(out, c);
    }
    /* The part after the last space. */
    size_t last = base;
    for (size_t i = base; i < out->len; i++)
        if (out->s[i] == ' ')
            last = i + 1;
    if (last > base) {
        memmove(out->s + base, out->s + last, out->len - last);
        out->len -= last - base;
    }
    /* Nothing left ("Memcpy DtoD (Device -> Device)" ends in a space):
     * the name as it is, as HTA's own tests expect of it. */
    if (out->len == base)
        sb_putn(out, s, n);
    if (out->s)
        out->s[out->len] = '\0';
}
