/* Memory snapshot mode: the state shared by its panes (device, memory
 * cursor, live allocations, report tables), the header, and the actions
 * that work from any of its panes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapshot/snapreport.h"
#include "core/report/tabfmt.h"
#include "tui/frame/app.h"
#include "tui/frame/draw.h"
#include "tui/snapshot/snapview.h"

const char *const snapview_table_names[SV__COUNT] = {"summary", "sites", "segments", "settings"};

/* Site depths `D` cycles through. */
static const unsigned depths[] = {0, 1, 2, 3, 5};

static bool has_device(const struct snapview *sv)
{
    return sv->dev < sv->s->devices.n;
}

void snapview_device_label(const struct snapshot *s, uint32_t dev, char *buf, size_t n)
{
    if (dev >= s->devices.n)
        snprintf(buf, n, "-");
    else if (s->devices.v[dev].host)
        snprintf(buf, n, "host");
    else
        snprintf(buf, n, "cuda:%d", s->devices.v[dev].id);
}

int64_t snapview_entry_us(const struct snapshot *s, uint32_t dev, uint32_t idx)
{
    if (dev >= s->devices.n || idx == IDX_NONE || idx >= s->devices.v[dev].nentries)
        return -1;
    const struct snap_entry *e = snapshot_entry(s, dev, idx);
    if (!(e->flags & SEF_TIME))
        return -1;
    uint32_t n = s->devices.v[dev].nentries;
    for (uint32_t i = 0; i < n; i++) {
        const struct snap_entry *f = snapshot_entry(s, dev, i);
        if (f->flags & SEF_TIME)
            return e->time_us - f->time_us;
    }
    return -1;
}

void snapview_entry_time(const struct snapshot *s, uint32_t dev, uint32_t idx, bool ascii,
                         char *buf, size_t n)
{
    int64_t us = snapview_entry_us(s, dev, idx);
    char d[32];
    if (us < 0) {
        snprintf(buf, n, "%s", "");
        return;
    }
    text_duration(d, sizeof(d), us * 1000, ascii);
    snprintf(buf, n, "+%s", d);
}

static void compute_live(struct snapview *sv)
{
    free(sv->live);
    sv->live = NULL;
    sv->nlive = 0;
    sv->live_bytes = 0;
    if (!has_device(sv))
        return;
    sv->nlive = snapshot_live_at(sv->s, sv->dev, sv->cursor, &sv->live);
    sv->live_bytes = snapshot_allocated_at(sv->s, sv->dev, sv->cursor);
}

static struct table *sites_table(struct snapview *sv)
{
    return snapreport_sites(sv->s, has_device(sv) ? sv->dev : IDX_NONE, sv->depth, 0);
}

static uint32_t last_entry(const struct snapview *sv)
{
    if (!has_device(sv) || !sv->s->devices.v[sv->dev].nentries)
        return IDX_NONE;
    return sv->s->devices.v[sv->dev].nentries - 1;
}

struct snapview *snapview_new(struct snapshot *s)
{
    struct snapview *sv = xcalloc(1, sizeof(*sv));
    sv->s = s;
    for (uint32_t d = 0; d < s->devices.n; d++)
        if (s->devices.v[d].nsegments || s->devices.v[d].nentries) {
            sv->dev = d;
            break;
        }
    sv->cursor = last_entry(sv);
    sv->tabs[SV_SUMMARY] = snapreport_summary(s);
    sv->tabs[SV_SITES] = sites_table(sv);
    sv->tabs[SV_SEGMENTS] = snapreport_segments(s);
    sv->tabs[SV_SETTINGS] = snapreport_settings(s);
    if (!sv->tabs[SV_SETTINGS])
        sv->errs[SV_SETTINGS] = xstrdup("this snapshot has no allocator settings");
    compute_live(sv);
    return sv;
}

void snapview_free(struct snapview *sv)
{
    if (!sv)
        return;
    for (int i = 0; i < SV__COUNT; i++) {
        table_free(sv->tabs[i]);
        free(sv->errs[i]);
    }
    free(sv->live);
    snapshot_free(sv->s);
    free(sv);
}

int snapview_chart_lines(struct app *a)
{
    /* As many bar rows as the layout gives the bottom pane. */
    return 12;
}

void snapview_set_cursor(struct snapview *sv, uint32_t idx)
{
    sv->cursor = idx;
    compute_live(sv);
    sv->gen++;
}

/* ------------------------------------------------------------------------ */
/* Header                                                                   */
/* ------------------------------------------------------------------------ */

static void header_line1(struct app *a, WINDOW *w, int cols)
{
    const struct snapview *sv = a->v.snap;
    const struct snapshot *s = sv->s;
    struct strbuf rest = STRBUF_INIT;
    char dev[32], b1[32], b2[32], b3[32], cnt[32];
    snapview_device_label(s, sv->dev, dev, sizeof(dev));
    if (has_device(sv)) {
        const struct snap_device *d = &s->devices.v[sv->dev];
        text_bytes(b1, sizeof(b1), d->reserved);
        text_bytes(b2, sizeof(b2), d->allocated);
        /* The chart's peak (requested sizes, as memory_viz), where p goes. */
        text_bytes(b3, sizeof(b3), d->peak_allocated > 0 ? (uint64_t)d->peak_allocated : 0);
        text_count(cnt, sizeof(cnt), d->nentries);
        sb_printf(&rest, "  %s", dev);
        if (s->devices.n > 1)
            sb_printf(&rest, " (%u of %zu)", sv->dev + 1, s->devices.n);
        sb_printf(&rest, "  reserved %s  allocated %s  peak requested %s  %s entries", b1, b2, b3,
                  cnt);
        if (d->nactions[SA_OOM])
            sb_printf(&rest, "  %llu OOM", (unsigned long long)d->nactions[SA_OOM]);
    } else {
        sb_puts(&rest, "  no devices");
    }
    attr_t at = color_attr(C_HEADER) | A_BOLD;
    draw_blank(w, 0, 0, cols, at);
    int x = draw_str(w, 0, 0, cols, " ", at, a->v.ascii);
    int rest_w = (int)text_width(sb_str(&rest), rest.len);
    int name_w = MIN((int)text_width(a->name, strlen(a->name)), MAX(12, cols - 1 - rest_w));
    x += draw_fit(w, 0, x, MIN(name_w, cols - x), a->name, strlen(a->name), true, false, at,
                  a->v.ascii);
    if (x < cols)
        draw_str(w, 0, x, cols - x, sb_str(&rest), at, a->v.ascii);
    sb_free(&rest);
}

/* Allocated and free bytes of the device's segments as one bar. */
static void header_line2(struct app *a, WINDOW *w, int cols)
{
    const struct snapview *sv = a->v.snap;
    draw_blank(w, 1, 0, cols, 0);
    const struct snap_device *d = has_device(sv) ? &sv->s->devices.v[sv->dev] : NULL;
    if (!d || !d->reserved) {
        draw_str(w, 1, 1, cols - 1, "no memory reserved on this device at snapshot time",
                 color_attr(C_DIM), a->v.ascii);
        return;
    }
    double allocated = (double)d->block_bytes[BS_ACTIVE_ALLOCATED] / (double)d->reserved;
    double pending = (double)d->block_bytes[BS_ACTIVE_PENDING_FREE] / (double)d->reserved;
    const struct bar_part parts[3] = {
        {allocated, "allocated", a->v.g->full, C_COMP},
        {pending, "pending free", a->v.g->shade_memcpy, C_MEMCPY},
        {MAX(0.0, 1 - allocated - pending), "free", a->v.g->shade_idle, C_IDLE},
    };
    draw_stacked_bar(w, 1, cols, "MEM", parts, 3);
}

void snapview_header(struct app *a, WINDOW *w, int cols)
{
    header_line1(a, w, cols);
    header_line2(a, w, cols);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static void say_cursor(struct app *a, const char *what)
{
    struct snapview *sv = a->v.snap;
    char b[32];
    text_bytes(b, sizeof(b), sv->live_bytes > 0 ? (uint64_t)sv->live_bytes : 0);
    char when[40];
    snapview_entry_time(sv->s, sv->dev, sv->cursor, a->v.ascii, when, sizeof(when));
    if (sv->cursor == IDX_NONE)
        app_message(a, "%s: %s allocated before the first entry", what, b);
    else if (when[0])
        app_message(a, "%s: %s allocated after entry %u (%s)", what, b, sv->cursor, when);
    else
        app_message(a, "%s: %s allocated after entry %u", what, b, sv->cursor);
}

static void replace_sites(struct app *a)
{
    struct snapview *sv = a->v.snap;
    struct table *old = sv->tabs[SV_SITES];
    sv->tabs[SV_SITES] = sites_table(sv);
    app_table_set_table(a, SV_SITES, sv->tabs[SV_SITES]);
    table_free(old);
}

static unsigned device_next(struct app *a)
{
    struct snapview *sv = a->v.snap;
    if (sv->s->devices.n < 2) {
        app_message(a, "this snapshot has one device");
        return R_HANDLED;
    }
    sv->dev = (sv->dev + 1) % (uint32_t)sv->s->devices.n;
    replace_sites(a);
    snapview_set_cursor(a->v.snap, last_entry(sv));
    char dev[32];
    snapview_device_label(sv->s, sv->dev, dev, sizeof(dev));
    app_message(a, "device %s", dev);
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

static bool need_entries(struct app *a)
{
    struct snapview *sv = a->v.snap;
    if (last_entry(sv) != IDX_NONE)
        return true;
    app_error(a, "no trace entries on this device: memory history was not recorded");
    return false;
}

static unsigned go_peak(struct app *a)
{
    struct snapview *sv = a->v.snap;
    if (!need_entries(a))
        return R_HANDLED;
    snapview_set_cursor(a->v.snap, sv->s->devices.v[sv->dev].peak_idx);
    say_cursor(a, "peak");
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

static unsigned go_oom(struct app *a)
{
    struct snapview *sv = a->v.snap;
    if (!need_entries(a))
        return R_HANDLED;
    uint32_t from = sv->cursor == IDX_NONE ? 0 : sv->cursor + 1;
    uint32_t idx = snapshot_find_action(sv->s, sv->dev, from, SA_OOM);
    if (idx == IDX_NONE)
        idx = snapshot_find_action(sv->s, sv->dev, 0, SA_OOM);
    if (idx == IDX_NONE) {
        app_message(a, "no out-of-memory events on this device");
        return R_HANDLED;
    }
    snapview_set_cursor(a->v.snap, idx);
    const struct snap_entry *e = snapshot_entry(sv->s, sv->dev, idx);
    char req[32], fr[32];
    text_bytes(req, sizeof(req), e->size);
    text_bytes(fr, sizeof(fr), e->addr);
    app_message(a, "out of memory at entry %u: %s asked for, %s free on the device", idx, req, fr);
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

static unsigned site_depth(struct app *a)
{
    struct snapview *sv = a->v.snap;
    size_t i = 0;
    while (i < ARRAY_SIZE(depths) && depths[i] != sv->depth)
        i++;
    sv->depth = depths[(i + 1) % ARRAY_SIZE(depths)];
    replace_sites(a);
    if (sv->depth)
        app_message(a, "sites grouped by their top %u frame%s", sv->depth,
                    sv->depth == 1 ? "" : "s");
    else
        app_message(a, "sites grouped by their whole traceback");
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

unsigned snapview_action(struct app *a, enum action act)
{
    switch (act) {
    case A_DEVICE_NEXT:
        return device_next(a);
    case A_PEAK:
        return go_peak(a);
    case A_OOM_NEXT:
        return go_oom(a);
    case A_SITE_DEPTH:
        return site_depth(a);
    default:
        return R_NONE;
    }
}

/* ------------------------------------------------------------------------ */
/* Tracebacks of the selection                                              */
/* ------------------------------------------------------------------------ */

bool snapview_pick_row(struct view *a, const struct table *tab, size_t row, struct snap_pick *out)
{
    const struct snapshot *s = a->snap->s;
    uint32_t ref = tab->refs[row];
    struct strbuf sb = STRBUF_INIT;
    bool ok = false;
    uint32_t stack = ref & ~SNAPREPORT_FREE_STACK_REF;
    if (strcmp(tab->name, "allocation_sites") == 0 && stack < snapshot_nstacks(s)) {
        /* A site of allocations made before recording shows where they were
         * freed; its name (in `what`) says so. */
        out->stack = stack;
        out->key = (1ull << 62) | ((uint64_t)a->snap->depth << 32) | row;
        tabfmt_cell_text(&sb, tab, row, 0);
        snprintf(out->what, sizeof(out->what), "site %s", sb_str(&sb));
        ok = true;
    } else if (strcmp(tab->name, "segments") == 0 && ref < s->segments.n) {
        const struct snap_segment *sg = &s->segments.v[ref];
        out->stack = sg->frames;
        out->key = (2ull << 62) | ref;
        char b[32];
        text_bytes(b, sizeof(b), sg->total_size);
        snprintf(out->what, sizeof(out->what), "%s segment, 0x%llx", b,
                 (unsigned long long)sg->address);
        ok = true;
    }
    sb_free(&sb);
    return ok;
}
