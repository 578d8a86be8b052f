/* Detail text: what the detail pane shows for the selection, as a list of
 * logical lines (headings, key/value pairs, free text) that the pane wraps
 * to its width. Panes fill it through their describe() op; a trace's
 * events are described by a registry of sections (tui/trace/event_detail.h),
 * so new sections (tracebacks, source) slot in without touching the panes. */
#ifndef TORCHTOP_TUI_DETAIL_H
#define TORCHTOP_TUI_DETAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/vec.h"
#include "tui/frame/colors.h"

struct view;

struct dline {
    uint8_t elem; /* enum color_elem of the value */
    bool heading; /* a section title */
    char *key;    /* program text, NULL for none (owned) */
    char *val;    /* untrusted bytes, cleaned when drawn (owned) */
    size_t vlen;
    bool wrap;   /* wrap the value instead of cutting it */
    uint32_t ev; /* event the line names (Enter selects it), IDX_NONE: none */
};

struct detail_out {
    VEC(struct dline) lines;
    int width; /* the detail pane's text width when it asked (0: unknown) */
};

void detail_clear(struct detail_out *d);
void detail_heading(struct detail_out *d, const char *title);
/* key: value, the value untrusted (cut in the middle when too long). */
void detail_kv(struct detail_out *d, const char *key, const char *val, size_t n);
void detail_kvf(struct detail_out *d, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A value wrapped over as many lines as it needs. */
void detail_wrap(struct detail_out *d, const char *key, const char *val, size_t n,
                 enum color_elem e);
/* A line of program text. */
void detail_textf(struct detail_out *d, enum color_elem e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The last line added names event ev: Enter or a click on it selects ev
 * in the call tree. */
void detail_link(struct detail_out *d, uint32_t ev);

#endif
