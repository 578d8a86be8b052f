/* Reads names separated by NUL bytes on stdin and writes the short name of
 * each (shortname_hta), NUL-terminated, to stdout: lets a golden test feed
 * every name of a trace through the C implementation. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/base/strbuf.h"
#include "core/diff/shortname.h"

int main(void)
{
    struct strbuf name = STRBUF_INIT, out = STRBUF_INIT;
    int c;
    do {
        c = getchar();
        if (c != EOF && c != '\0') {
            sb_putc(&name, (char)c);
            continue;
        }
        if (c == EOF && name.len == 0)
            break;
        sb_clear(&out);
        shortname_hta(&out, sb_str(&name), name.len);
        fwrite(sb_str(&out), 1, out.len, stdout);
        putchar('\0');
        sb_clear(&name);
    } while (c != EOF);
    sb_free(&name);
    sb_free(&out);
    return ferror(stdout) ? 1 : 0;
}
