/* SVG escaping, document frame and output. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/base/svg.h"

void svg_escape(struct strbuf *out, const char *s, size_t n)
{
    struct strbuf safe = STRBUF_INIT;
    display_sanitize(&safe, s, n);
    const char *p = sb_str(&safe);
    for (size_t i = 0; i < safe.len; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == 0xEF && i + 2 < safe.len && (unsigned char)p[i + 1] == 0xBF &&
            ((unsigned char)p[i + 2] == 0xBE || (unsigned char)p[i + 2] == 0xBF)) {
            sb_puts(out, "\xef\xbf\xbd");
            i += 2;
            continue;
        }
        switch (c) {
        case '&':
            sb_puts(out, "&amp;");
            break;
        case '<':
            sb_puts(out, "&lt;");
            break;
        case '>':
            sb_puts(out, "&gt;");
            break;
        case '"':
            sb_puts(out, "&quot;");
            break;
        case '\'':
            sb_puts(out, "&apos;");
            break;
        default:
            sb_putc(out, (char)c);
        }
    }
    sb_free(&safe);
}

void svg_begin(struct strbuf *out, int width, int height, const char *title)
{
    sb_printf(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
        "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Verdana, DejaVu Sans, sans-serif\">\n",
        width, height, width, height);
    sb_puts(out, "<title>");
    svg_escape(out, title, strlen(title));
    sb_puts(out, "</title>\n");
    sb_printf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width,
              height);
}

void svg_end(struct strbuf *out)
{
    sb_puts(out, "</svg>\n");
}

enum status svg_save(const char *path, const struct strbuf *svg, struct errinfo *err)
{
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK)
        return ST_IO;
    const char *p = sb_str(svg);
    size_t left = svg->len;
    while (left) {
        ssize_t n = write(of.fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            errinfo_set(err, ST_IO, path, -1, "cannot write: %s", strerror(e));
            outfile_discard(&of);
            errno = e;
            return ST_IO;
        }
        p += n;
        left -= (size_t)n;
    }
    return outfile_commit(&of, err);
}
