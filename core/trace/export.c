/* Chrome-trace export of a slice: selection and JSON writing. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/outfile.h"
#include "core/trace/argpack.h"
#include "core/trace/export.h"
#include "core/trace/rawtext.h"
#include "core/trace/steps.h"
#include "core/base/strbuf.h"
#include "core/base/hmap.h"

/* ------------------------------------------------------------------------ */
/* Selection                                                                */
/* ------------------------------------------------------------------------ */

static void keep_gpu_of(const struct trace *t, uint32_t launch, uint8_t *keep)
{
    const struct launch_info *li = ev_launch(t, launch);
    if (!li)
        return;
    for (uint32_t k = 0; k < li->gpu_count; k++)
        keep[t->launch_gpu[li->gpu_first + k]] = 1;
}

/* Keep span i, its subtree, and the GPU work launched inside it. */
static void keep_subtree(const struct trace *t, uint32_t root, uint8_t *keep)
{
    uint32_t *stack = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    size_t depth = 0;
    stack[depth++] = root;
    while (depth) {
        uint32_t i = stack[--depth];
        if (keep[i] == 1 && i != root)
            continue;
        keep[i] = 1;
        keep_gpu_of(t, i, keep);
        for (uint32_t c = t->ev.v[i].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
            stack[depth++] = c;
    }
    free(stack);
}

static bool overlaps(const struct event *e, int64_t from, int64_t to)
{
    int64_t end = ev_end(e);
    return e->dur ? e->ts < to && end > from : e->ts >= from && e->ts < to;
}

static int by_from(const void *a, const void *b)
{
    const struct export_window *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

/* Keep what overlaps any of the n windows (each from < to). Overlapping
 * or touching windows are merged first: a span overlaps their union
 * exactly when it overlaps one of them. */
static void keep_windows(const struct trace *t, const struct export_window *wins, size_t n,
                         uint8_t *keep)
{
    struct export_window *w = xmalloc((n + 1) * sizeof(*w));
    memcpy(w, wins, n * sizeof(*w));
    qsort(w, n, sizeof(*w), by_from);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (m && w[k].from <= w[m - 1].to)
            w[m - 1].to = MAX(w[m - 1].to, w[k].to);
        else
            w[m++] = w[k];
    }
    for (uint32_t i = 0; i < t->ev.n && m; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind == EVK_META)
            continue;
        /* The first window ending after the event starts: the only one
         * it can overlap without overlapping an earlier one too. */
        size_t lo = 0, hi = m;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (w[mid].to > e->ts)
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo == m || !overlaps(e, w[lo].from, w[lo].to))
            continue;
        if (evk_is_gpu(e->kind) && (e->flags & EVF_LINKED))
            continue; /* comes with its launch */
        keep[i] = 1;
        if (evk_is_launch(e->kind))
            keep_gpu_of(t, i, keep);
    }
    free(w);
}

static void keep_window(const struct trace *t, int64_t from, int64_t to, uint8_t *keep)
{
    struct export_window w = {from, to};
    keep_windows(t, &w, 1, keep);
}

/* Instants ([memory] and others) are no one's child in the tree: each goes
 * with the innermost span around it on its row (its parent, the op
 * key-averages charges its bytes to), so a kept span keeps them all, even
 * those outside a window the span overhangs. */
static void keep_instants(const struct trace *t, uint8_t *keep)
{
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind == EVK_INSTANT && e->parent != IDX_NONE && keep[e->parent])
            keep[i] = 1;
    }
}

bool export_select(const struct trace *t, const struct export_sel *sel, uint8_t *keep, char *err)
{
    memset(keep, 0, t->ev.n);
    err[0] = '\0';
    switch (sel->kind) {
    case EXPORT_ALL:
        memset(keep, 1, t->ev.n);
        break;
    case EXPORT_WINDOW:
        if (sel->to <= sel->from) {
            snprintf(err, 256, "the window ends before it starts");
            return false;
        }
        keep_window(t, sel->from, sel->to, keep);
        break;
    case EXPORT_WINDOWS:
        for (size_t k = 0; k < sel->nwindows; k++)
            if (sel->windows[k].to <= sel->windows[k].from) {
                snprintf(err, 256, "a window ends before it starts");
                return false;
            }
        keep_windows(t, sel->windows, sel->nwindows, keep);
        break;
    case EXPORT_STEP: {
        int64_t from, to;
        if (!steps_find(t, sel->step, &from, &to)) {
            snprintf(err, 256, "the trace has no ProfilerStep#%" PRId64, sel->step);
            return false;
        }
        keep_window(t, from, to, keep);
        break;
    }
    case EXPORT_MATCH: {
        regex_t re;
        int rc = regcomp(&re, sel->regex, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char msg[128];
            regerror(rc, &re, msg, sizeof(msg));
            snprintf(err, 256, "bad regular expression '%.64s': %s", sel->regex, msg);
            return false;
        }
        /* Match each distinct name once. */
        struct hmap verdict;
        hmap_init(&verdict, 1024);
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = &t->ev.v[i];
            if (!evk_is_host_span(e->kind) || e->ph != 'X')
                continue;
            uint32_t v = hmap_get(&verdict, e->name);
            if (v == IDX_NONE) {
                v = regexec(&re, trace_str(t, e->name), 0, NULL, 0) == 0;
                hmap_put(&verdict, e->name, v);
            }
            if (v)
                keep_subtree(t, i, keep);
        }
        hmap_free(&verdict);
        regfree(&re);
        break;
    }
    case EXPORT_SUBTREE:
        if (sel->root >= t->ev.n || !evk_is_host_span(t->ev.v[sel->root].kind)) {
            snprintf(err, 256, "not a host span");
            return false;
        }
        keep_subtree(t, sel->root, keep);
        break;
    }
    keep_instants(t, keep);
    bool any = false;
    for (uint32_t i = 0; i < t->ev.n && !any; i++)
        any = keep[i] && t->ev.v[i].kind != EVK_META;
    /* A trace of other phases only (B/E) is still a whole trace. */
    if (!any && !(sel->kind == EXPORT_ALL && t->others.n)) {
        snprintf(err, 256, "the selection holds no events");
        return false;
    }
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (t->ev.v[i].kind == EVK_META)
            keep[i] = 1;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Flows                                                                    */
/* ------------------------------------------------------------------------ */

/* The event a flow point binds to: one starting exactly at its time on its
 * row, else the innermost span on the row enclosing it. */
static uint32_t flow_event(const struct trace *t, const struct flow *f)
{
    const struct row *row = &t->rows.v[f->row];
    /* Flow points of GPU events sit on the device row of the same ids. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            uint32_t other = IDX_NONE;
            for (uint32_t r = 0; r < t->rows.n && other == IDX_NONE; r++)
                if (r != f->row && t->rows.v[r].pid_str == row->pid_str &&
                    t->rows.v[r].tid_str == row->tid_str)
                    other = r;
            if (other == IDX_NONE)
                break;
            row = &t->rows.v[other];
        }
        if (!row->nevents || !row->order)
            continue;
        /* Last event starting at or before the point. */
        size_t lo = 0, hi = row->nevents;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (t->ev.v[row->order[mid]].ts <= f->ts)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (!lo)
            continue;
        /* An event starting exactly there, innermost (shortest) first. */
        for (size_t k = lo; k-- > 0 && t->ev.v[row->order[k]].ts == f->ts;) {
            uint32_t i = row->order[k];
            if (t->ev.v[i].kind != EVK_META && t->ev.v[i].ph == 'X')
                return i;
        }
        for (uint32_t i = row->order[lo - 1]; i != IDX_NONE; i = t->ev.v[i].parent) {
            const struct event *e = &t->ev.v[i];
            if (e->ph == 'X' && e->ts <= f->ts && f->ts <= ev_end(e))
                return i;
        }
    }
    return IDX_NONE;
}

/* The time each row's kept events cover, joined over the rows of the same
 * ids (a GPU event's flow point sits on the host row of its device row's
 * ids): lo[r] > hi[r] when none. The event a point binds to always covers
 * the point's time, so a point outside its row's span binds to no kept
 * event, and most points of a small scope are settled without a search. */
static void kept_spans(const struct trace *t, const uint8_t *keep, int64_t *lo, int64_t *hi)
{
    size_t nr = t->rows.n;
    for (size_t r = 0; r < nr; r++) {
        lo[r] = INT64_MAX;
        hi[r] = INT64_MIN;
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!keep[i] || e->row >= nr)
            continue;
        lo[e->row] = MIN(lo[e->row], e->ts);
        hi[e->row] = MAX(hi[e->row], ev_end(e));
    }
    /* Rows of the same ids: the first of them (by index) gathers the
     * group's span, then every member takes it. */
    struct hmap first;
    hmap_init(&first, nr);
    uint32_t *group = xmalloc((nr + 1) * sizeof(uint32_t));
    for (size_t r = 0; r < nr; r++) {
        const struct row *row = &t->rows.v[r];
        uint64_t key = (uint64_t)row->pid_str << 32 | row->tid_str;
        uint32_t g = hmap_put_first(&first, key, (uint32_t)r);
        group[r] = g;
        lo[g] = MIN(lo[g], lo[r]);
        hi[g] = MAX(hi[g], hi[r]);
    }
    for (size_t r = 0; r < nr; r++) {
        lo[r] = lo[group[r]];
        hi[r] = hi[group[r]];
    }
    free(group);
    hmap_free(&first);
}

static uint64_t flow_key(const struct flow *f)
{
    return f->id * 0x9e3779b97f4a7c15ULL ^ f->cat;
}

/* keep_flow[k] for every flow point: bound to a kept event, and so is
 * every other point with the same category and id. */
static uint8_t *select_flows(const struct trace *t, const uint8_t *keep)
{
    uint8_t *ok = xcalloc(t->flows.n + 1, 1);
    size_t nr = t->rows.n;
    int64_t *lo = xmalloc((nr + 1) * sizeof(int64_t)), *hi = xmalloc((nr + 1) * sizeof(int64_t));
    kept_spans(t, keep, lo, hi);
    /* The keys of the points bound to kept events (value 1), then marked
     * 0 where any point of the key is not. */
    struct hmap keys;
    hmap_init(&keys, 1024);
    for (size_t k = 0; k < t->flows.n; k++) {
        const struct flow *f = &t->flows.v[k];
        if (f->row >= nr || f->ts < lo[f->row] || f->ts > hi[f->row])
            continue;
        uint32_t e = flow_event(t, f);
        ok[k] = e != IDX_NONE && keep[e];
        if (ok[k])
            hmap_put(&keys, flow_key(f), 1);
    }
    for (size_t k = 0; k < t->flows.n && hmap_count(&keys); k++)
        if (!ok[k] && hmap_get(&keys, flow_key(&t->flows.v[k])) != IDX_NONE)
            hmap_put(&keys, flow_key(&t->flows.v[k]), 0);
    for (size_t k = 0; k < t->flows.n; k++)
        if (ok[k] && hmap_get(&keys, flow_key(&t->flows.v[k])) != 1)
            ok[k] = 0;
    hmap_free(&keys);
    free(lo);
    free(hi);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */
/* ------------------------------------------------------------------------ */

struct writer {
    FILE *f;
    gzFile gz;
    struct strbuf buf;
    bool failed;
    int error;                 /* errno of the first failed write */
    struct rawtext_reader raw; /* the texts of events kept as written */
    struct errinfo *raw_err;   /* where a failure to read one is told */
    bool raw_failed;
};

/* What export_stream writes ahead of its reader at a time: small enough to
 * stay in the cache while the reader copies it out. */
#define EXPORT_PIECE ((size_t)256 << 10)

static void w_flush(struct writer *w)
{
    if (!w->buf.len || w->failed || (!w->gz && !w->f))
        return;
    if (w->gz)
        w->failed = gzwrite(w->gz, w->buf.s, (unsigned)w->buf.len) != (int)w->buf.len;
    else
        w->failed = fwrite(w->buf.s, 1, w->buf.len, w->f) != w->buf.len;
    if (w->failed)
        w->error = errno;
    sb_clear(&w->buf);
}

static void put_str(struct strbuf *sb, const struct trace *t, uint32_t id)
{
    sb_put_json_string(sb, trace_str(t, id), strtab_len(&t->strs, id));
}

/* JSON text kept as written (event.raw, flow.raw, trace.others), read
 * again from the input where it lies there (rawtext.h). */
static void put_raw(struct writer *w, uint32_t id)
{
    if (!w->raw_failed && rawtext_put(&w->raw, id, &w->buf, w->raw_err) != ST_OK)
        w->raw_failed = true;
}

/* Microseconds as the file writes them: an integer when whole, else up to
 * three decimals (the loader keeps an event's text when this would not
 * give back the number it read). */
static void put_ts(struct strbuf *sb, int64_t ns)
{
    uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0)
        sb_putc(sb, '-');
    sb_put_u64(sb, a / 1000);
    unsigned f = (unsigned)(a % 1000);
    if (f) {
        char frac[4] = {'.', (char)('0' + f / 100), (char)('0' + f / 10 % 10),
                        (char)('0' + f % 10)};
        size_t n = 4;
        while (frac[n - 1] == '0')
            n--;
        sb_putn(sb, frac, n);
    }
}

static void put_id(struct strbuf *sb, int64_t v, bool quoted)
{
    if (quoted)
        sb_putc(sb, '"');
    sb_put_i64(sb, v);
    if (quoted)
        sb_putc(sb, '"');
}

/* pid and tid as read: numbers, text, or digits in quotes (quoted bit 0:
 * pid, bit 1: tid). lanes (NULL: none) numbers the rows of captured copies
 * (capture.h): rows of one capture thread share their tid, and copies of
 * different graph launches may overlap in time, so each is written on a
 * lane of that thread where it overlaps no other (" (lane N)" after the tid
 * from lane 1 on), and reads back nested as it was. */
static void put_ids(struct strbuf *sb, const struct trace *t, uint32_t row, unsigned quoted,
                    const uint32_t *lanes)
{
    const struct row *r = &t->rows.v[row];
    sb_puts(sb, ", \"pid\": ");
    if (r->flags & ROW_PID_TEXT)
        put_str(sb, t, r->pid_str);
    else
        put_id(sb, r->pid, quoted & 1);
    sb_puts(sb, ", \"tid\": ");
    if (lanes && lanes[row] != IDX_NONE && lanes[row] > 0) {
        struct strbuf tid = STRBUF_INIT;
        sb_printf(&tid, "%s (lane %u)", trace_str(t, r->tid_str), lanes[row]);
        sb_put_json_string(sb, sb_str(&tid), tid.len);
        sb_free(&tid);
    } else if (r->flags & ROW_TID_TEXT) {
        put_str(sb, t, r->tid_str);
    } else {
        put_id(sb, r->tid, quoted & 2);
    }
}

/* The lane of each row of captured copies (IDX_NONE for other rows; NULL
 * when the trace has none): each row, in graft order (the launches' order
 * on their thread, so time order), on the first lane whose rows ended by
 * its start. Caller frees. */
static uint32_t *copy_lanes(const struct trace *t)
{
    if (!t->grafts.n)
        return NULL;
    size_t nr = t->rows.n;
    uint32_t *lane = xmalloc((nr + 1) * sizeof(uint32_t));
    int64_t *lo = xmalloc((nr + 1) * sizeof(int64_t)), *hi = xmalloc((nr + 1) * sizeof(int64_t));
    memset(lane, 0xff, (nr + 1) * sizeof(uint32_t));
    for (size_t r = 0; r < nr; r++) {
        lo[r] = INT64_MAX;
        hi[r] = INT64_MIN;
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!(e->flags & EVF_CAPTURED))
            continue;
        lo[e->row] = MIN(lo[e->row], e->ts);
        hi[e->row] = MAX(hi[e->row], ev_end(e));
    }
    VEC(int64_t) ends = {0};
    for (size_t k = 0; k < t->grafts.n; k++) {
        uint32_t r = t->grafts.v[k].row;
        if (lo[r] > hi[r])
            continue;
        uint32_t l = 0;
        while (l < ends.n && ends.v[l] > lo[r])
            l++;
        if (l == ends.n)
            VEC_PUSH(&ends, hi[r]);
        else
            ends.v[l] = hi[r];
        lane[r] = l;
    }
    VEC_FREE(&ends);
    free(lo);
    free(hi);
    return lane;
}

/* ------------------------------------------------------------------------ */
/* Traces merged with a capture (capture.h)                                 */
/* ------------------------------------------------------------------------ */

/* Whether GPU event i was aligned with a captured launch: its launch is a
 * captured copy. */
static bool aligned_gpu(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    if (!t->n_captures || !evk_is_gpu(e->kind) || e->aux == IDX_NONE)
        return false;
    uint32_t l = t->gpus.v[e->aux].launch;
    return l != IDX_NONE && (t->ev.v[l].flags & EVF_CAPTURED);
}

/* The correlation id event i is written with when a capture merge gave it
 * a new one (a captured launch call's copy, an aligned GPU event), else 0:
 * the export then links each replayed kernel to its captured launch. */
static uint64_t merged_corr(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    if (!t->n_captures || e->aux == IDX_NONE)
        return 0;
    if ((e->flags & EVF_CAPTURED) && evk_is_launch(e->kind))
        return t->launches.v[e->aux].corr;
    return aligned_gpu(t, i) ? t->gpus.v[e->aux].corr : 0;
}

/* args of event i with "correlation" set to corr (when not 0) and, for a
 * captured Python frame, without the capture's Python ids (they would name
 * the replay's frames; the copy nests by time). */
static void put_args(struct strbuf *sb, const struct trace *t, uint32_t i, uint64_t corr,
                     bool py_copy)
{
    struct argiter it;
    struct argval a;
    bool first = true, put_corr = false;
    sb_putc(sb, '{');
    if (t->ev.v[i].args != IDX_NONE) {
        argpack_iter_init(&it, t, i);
        while (argpack_iter_next(&it, &a)) {
            const char *k = strtab_str(&t->strs, a.key);
            if (py_copy && (strcmp(k, "Python id") == 0 || strcmp(k, "Python parent id") == 0))
                continue;
            if (!first)
                sb_puts(sb, ", ");
            first = false;
            sb_put_json_string(sb, k, strtab_len(&t->strs, a.key));
            sb_puts(sb, ": ");
            if (corr && strcmp(k, "correlation") == 0) {
                sb_printf(sb, "%" PRIu64, corr);
                put_corr = true;
            } else {
                argpack_val_put_json(sb, t, &a);
            }
        }
    }
    if (corr && !put_corr)
        sb_printf(sb, "%s\"correlation\": %" PRIu64, first ? "" : ", ", corr);
    sb_putc(sb, '}');
}

/* The flow end that ties aligned GPU event i to its captured launch (the
 * merge made the start, at the launch's copy). */
static void put_flow_end(struct strbuf *sb, const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    sb_printf(sb, "{\"ph\": \"f\", \"id\": %" PRIu64, t->gpus.v[e->aux].corr);
    put_ids(sb, t, e->row,
            (e->flags & EVF_PID_QUOTED ? 1u : 0u) | (e->flags & EVF_TID_QUOTED ? 2u : 0u), NULL);
    sb_puts(sb, ", \"ts\": ");
    put_ts(sb, e->ts);
    sb_puts(sb, ", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}");
}

/* An event rebuilt from its fields, in the loader's terms (rebuildable()
 * in load_event.c), or its text as written. */
static void put_event(struct writer *w, const struct trace *t, uint32_t i, const uint32_t *lanes)
{
    struct strbuf *sb = &w->buf;
    const struct event *e = &t->ev.v[i];
    uint64_t corr = merged_corr(t, i);
    bool py_copy = (e->flags & EVF_CAPTURED) && e->kind == EVK_PYTHON;
    if (e->raw && !corr && !py_copy) {
        put_raw(w, e->raw);
        return;
    }
    sb_puts(sb, "{\"ph\": \"");
    sb_putc(sb, e->ph ? (char)e->ph : 'X');
    sb_putc(sb, '"');
    if (e->cat) {
        sb_puts(sb, ", \"cat\": ");
        put_str(sb, t, e->cat);
    }
    sb_puts(sb, ", \"name\": ");
    put_str(sb, t, e->name);
    put_ids(sb, t, e->row,
            (e->flags & EVF_PID_QUOTED ? 1u : 0u) | (e->flags & EVF_TID_QUOTED ? 2u : 0u), lanes);
    sb_puts(sb, ", \"ts\": ");
    put_ts(sb, e->ts);
    if (e->ph == 'X') {
        sb_puts(sb, ", \"dur\": ");
        put_ts(sb, e->dur);
    }
    if (e->ph == 'i' || e->ph == 'I')
        sb_puts(sb, ", \"s\": \"t\"");
    if (corr || py_copy) {
        sb_puts(sb, ", \"args\": ");
        put_args(sb, t, i, corr, py_copy);
    } else if (e->args != IDX_NONE) {
        sb_puts(sb, ", \"args\": ");
        argpack_put_json(sb, t, i);
    }
    sb_putc(sb, '}');
}

static void put_flow(struct writer *w, const struct trace *t, const struct flow *f,
                     const uint32_t *lanes)
{
    struct strbuf *sb = &w->buf;
    if (f->raw) {
        put_raw(w, f->raw);
        return;
    }
    sb_puts(sb, "{\"ph\": \"");
    sb_putc(sb, (char)f->ph);
    sb_puts(sb, "\", \"id\": ");
    sb_put_u64(sb, f->id);
    put_ids(sb, t, f->row,
            (f->quoted & FLOW_PID_QUOTED ? 1u : 0u) | (f->quoted & FLOW_TID_QUOTED ? 2u : 0u),
            lanes);
    sb_puts(sb, ", \"ts\": ");
    put_ts(sb, f->ts);
    sb_puts(sb, ", \"cat\": ");
    put_str(sb, t, f->cat);
    sb_puts(sb, ", \"name\": ");
    put_str(sb, t, f->name);
    if (f->bind_enclosing)
        sb_puts(sb, ", \"bp\": \"e\"");
    sb_putc(sb, '}');
}

static void put_top(struct strbuf *sb, const struct trace *t)
{
    if (!t->top)
        return;
    const cJSON *v;
    cJSON_ArrayForEach(v, t->top)
    {
        sb_put_json_string(sb, v->string, strlen(v->string));
        sb_puts(sb, ": ");
        if (strcmp(v->string, "baseTimeNanoseconds") == 0) {
            sb_printf(sb, "%" PRId64, t->base_ns); /* exact, unlike the double */
        } else {
            char *text = cJSON_PrintUnformatted(v);
            sb_puts(sb, text ? text : "null");
            cJSON_free(text);
        }
        sb_puts(sb, ",\n");
    }
}

/* Where the document's writing stands: it is written one item (an event,
 * a flow point) at a time, so that it can stop when the buffer is full and
 * go on later (export_stream) or flush and go on (export_chrome). */
enum doc_part { DOC_HEAD, DOC_EVENTS, DOC_OTHERS, DOC_FLOWS, DOC_FLOW_ENDS, DOC_TAIL, DOC_DONE };

struct doc_cursor {
    const struct trace *t;
    const uint8_t *keep;
    uint8_t *fkeep;  /* flows kept; NULL when every event is kept */
    uint32_t *lanes; /* copy_lanes */
    bool all;        /* every event kept: every flow and other-phase event too */
    bool first;      /* no item written yet */
    enum doc_part part;
    size_t i;     /* next index in the part's array */
    uint32_t rep; /* repeats written of metadata record i */
    uint64_t ne, nf;
};

static void cursor_init(struct doc_cursor *c, const struct trace *t, const uint8_t *keep)
{
    *c = (struct doc_cursor){.t = t, .keep = keep, .all = true, .first = true, .part = DOC_HEAD};
    for (uint32_t i = 0; i < t->ev.n && c->all; i++)
        c->all = keep[i] != 0;
    c->fkeep = c->all ? NULL : select_flows(t, keep);
    c->lanes = copy_lanes(t);
}

static void cursor_free(struct doc_cursor *c)
{
    free(c->fkeep);
    free(c->lanes);
}

static void put_sep(struct writer *w, struct doc_cursor *c)
{
    if (!c->first)
        sb_puts(&w->buf, ",\n");
    c->first = false;
}

/* Whether flow k is written: kept, and not a graph launch's flow to a
 * kernel the capture attributed (that kernel's flow comes from its
 * captured launch now). */
static bool flow_written(const struct doc_cursor *c, size_t k)
{
    const struct trace *t = c->t;
    if (c->fkeep && !c->fkeep[k])
        return false;
    if (t->n_captures && t->flows.v[k].ph != 's') {
        uint32_t b = flow_event(t, &t->flows.v[k]);
        if (b != IDX_NONE && aligned_gpu(t, b))
            return false;
    }
    return true;
}

/* Write the document's next item into w->buf; false when it is complete. */
static bool put_next(struct writer *w, struct doc_cursor *c)
{
    const struct trace *t = c->t;
    switch (c->part) {
    case DOC_HEAD:
        sb_puts(&w->buf, "{\n");
        put_top(&w->buf, t);
        sb_puts(&w->buf, "\"traceEvents\": [\n");
        c->part = DOC_EVENTS;
        return true;
    case DOC_EVENTS:
        while (c->i < t->ev.n && !c->keep[c->i])
            c->i++;
        if (c->i < t->ev.n) {
            /* A metadata record as many times as the file repeated it. */
            const struct event *e = &t->ev.v[c->i];
            uint32_t times = e->kind == EVK_META ? e->aux + 1 : 1;
            put_sep(w, c);
            put_event(w, t, (uint32_t)c->i, c->lanes);
            c->ne++;
            if (++c->rep >= times) {
                c->rep = 0;
                c->i++;
            }
            return true;
        }
        c->part = c->all ? DOC_OTHERS : DOC_FLOWS;
        c->i = 0;
        return true;
    case DOC_OTHERS:
        if (c->i < t->others.n) {
            put_sep(w, c);
            put_raw(w, t->others.v[c->i++]);
            c->ne++;
            return true;
        }
        c->part = DOC_FLOWS;
        c->i = 0;
        return true;
    case DOC_FLOWS:
        while (c->i < t->flows.n && !flow_written(c, c->i))
            c->i++;
        if (c->i < t->flows.n) {
            put_sep(w, c);
            put_flow(w, t, &t->flows.v[c->i++], c->lanes);
            c->nf++;
            return true;
        }
        c->part = t->n_captures ? DOC_FLOW_ENDS : DOC_TAIL;
        c->i = 0;
        return true;
    case DOC_FLOW_ENDS:
        while (c->i < t->ev.n && !(c->keep[c->i] && aligned_gpu(t, (uint32_t)c->i)))
            c->i++;
        if (c->i < t->ev.n) {
            put_sep(w, c);
            put_flow_end(&w->buf, t, (uint32_t)c->i++);
            c->nf++;
            return true;
        }
        c->part = DOC_TAIL;
        return true;
    case DOC_TAIL:
        sb_puts(&w->buf, "\n]}\n");
        c->part = DOC_DONE;
        return true;
    case DOC_DONE:
        break;
    }
    return false;
}

/* Write items into w->buf until it holds at least `fill` bytes, the
 * document is complete or a kept text cannot be read. False when there
 * is nothing more to write. */
static bool put_some(struct writer *w, struct doc_cursor *c, size_t fill)
{
    while (w->buf.len < fill && !w->raw_failed)
        if (!put_next(w, c))
            return false;
    return !w->raw_failed;
}

/* The document: the kept events, then the flows, into w (flushed as it
 * grows when w has a file). */
static void write_document(struct writer *w, const struct trace *t, const uint8_t *keep,
                           uint64_t *n_events, uint64_t *n_flows)
{
    struct doc_cursor c;
    cursor_init(&c, t, keep);
    while (put_some(w, &c, (size_t)1 << 20))
        w_flush(w);
    if (!w->raw_failed)
        w_flush(w);
    cursor_free(&c);
    if (n_events)
        *n_events = c.ne;
    if (n_flows)
        *n_flows = c.nf;
}

enum status export_chrome(const struct trace *t, const uint8_t *keep, const char *path, bool gzip,
                          uint64_t *n_events, uint64_t *n_flows, struct errinfo *err)
{
    struct writer w = {0};
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK)
        return ST_IO;
    rawtext_reader_init(&w.raw, t);
    w.raw_err = err;
    /* The stream owns a copy of the descriptor; the outfile closes its own
     * and renames the finished file into place. */
    int fd = dup(of.fd);
    if (fd >= 0 && gzip)
        w.gz = gzdopen(fd, "wb6");
    else if (fd >= 0)
        w.f = fdopen(fd, "w");
    if (!w.gz && !w.f) {
        errinfo_set(err, ST_IO, path, -1, "cannot create: %s", strerror(errno ? errno : ENOMEM));
        if (fd >= 0)
            close(fd);
        outfile_discard(&of);
        rawtext_reader_close(&w.raw);
        return ST_IO;
    }
    uint64_t ne = 0, nf = 0;
    write_document(&w, t, keep, &ne, &nf);
    rawtext_reader_close(&w.raw);
    bool bad = w.failed || w.raw_failed;
    errno = 0;
    if (w.gz)
        bad |= gzclose(w.gz) != Z_OK;
    else
        bad |= fclose(w.f) != 0;
    sb_free(&w.buf);
    if (bad) {
        int e = w.error ? w.error : errno ? errno : EIO;
        if (!w.raw_failed) /* else err tells why the input could not be read */
            errinfo_set(err, ST_IO, path, -1, "cannot write the trace: %s", strerror(e));
        outfile_discard(&of);
        return ST_IO;
    }
    if (outfile_commit(&of, err) != ST_OK)
        return ST_IO;
    if (n_events)
        *n_events = ne;
    if (n_flows)
        *n_flows = nf;
    return ST_OK;
}

/* The stream writes on a thread of its own, a few pieces ahead of its
 * reader: the reader (a loader's reading thread) then only copies, while
 * the writing runs beside the parsing. Where no thread starts, the reader
 * writes each piece when it needs it. */
#define EXPORT_AHEAD 8

struct export_stream {
    struct writer w; /* neither file nor gz: pieces are taken from w.buf */
    struct doc_cursor c;
    const struct trace *t;
    const uint8_t *keep;
    bool threaded;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct strbuf ring[EXPORT_AHEAD]; /* written pieces, oldest at head */
    size_t head, count;
    bool done;          /* the writer wrote the document's end */
    bool failed;        /* ... or stopped at a text it could not read */
    bool stop;          /* the reader closed the stream */
    struct errinfo err; /* why it failed */
    struct strbuf cur;  /* the piece being read */
    size_t pos;         /* bytes of cur handed out */
};

static void stream_begin(struct export_stream *s)
{
    rawtext_reader_init(&s->w.raw, s->t);
    s->w.raw_err = &s->err;
    cursor_init(&s->c, s->t, s->keep);
}

/* The next piece into s->w.buf; false when it ends the document or the
 * writing failed (s->w.raw_failed). */
static bool write_piece(struct export_stream *s)
{
    return put_some(&s->w, &s->c, EXPORT_PIECE);
}

static void *stream_writer(void *arg)
{
    struct export_stream *s = arg;
    stream_begin(s);
    bool more = true;
    while (more) {
        more = write_piece(s);
        pthread_mutex_lock(&s->lock);
        while (s->count == EXPORT_AHEAD && !s->stop)
            pthread_cond_wait(&s->changed, &s->lock);
        if (s->stop) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        if (s->w.raw_failed) {
            s->failed = true;
            more = false;
        } else {
            s->ring[(s->head + s->count) % EXPORT_AHEAD] = s->w.buf;
            s->count++;
            s->w.buf = (struct strbuf)STRBUF_INIT;
            s->done = !more;
        }
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->lock);
    }
    return NULL;
}

struct export_stream *export_stream_open(const struct trace *t, const uint8_t *keep)
{
    struct export_stream *s = xcalloc(1, sizeof(*s));
    s->t = t;
    s->keep = keep;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    s->threaded = pthread_create(&s->thread, NULL, stream_writer, s) == 0;
    if (!s->threaded)
        stream_begin(s);
    return s;
}

/* err = the writer's fault, as it told it. */
static void copy_fault(struct errinfo *err, const struct errinfo *from)
{
    enum status st = from->status != ST_OK ? from->status : ST_IO;
    const char *msg = from->msg ? from->msg : "cannot read the trace again";
    if (from->has_offset && from->offset_what)
        errinfo_set_at(err, st, from->file, from->offset_what, from->offset, "%s", msg);
    else
        errinfo_set(err, st, from->file, from->has_offset ? (int64_t)from->offset : -1, "%s", msg);
}

/* The next piece into s->cur (left empty at the document's end): written
 * here when the stream has no thread, else taken from the writer's ring,
 * waiting for it. False when the writing failed. */
static bool take_piece(struct export_stream *s)
{
    if (!s->threaded) {
        if (!s->done && !s->failed) {
            s->done = !write_piece(s);
            s->failed = s->w.raw_failed;
            s->cur = s->w.buf;
            s->w.buf = (struct strbuf)STRBUF_INIT;
        }
        return !s->failed;
    }
    pthread_mutex_lock(&s->lock);
    while (!s->count && !s->done && !s->failed)
        pthread_cond_wait(&s->changed, &s->lock);
    if (s->count) {
        s->cur = s->ring[s->head];
        s->ring[s->head] = (struct strbuf)STRBUF_INIT;
        s->head = (s->head + 1) % EXPORT_AHEAD;
        s->count--;
        pthread_cond_broadcast(&s->changed);
    }
    bool ok = s->cur.len || !s->failed;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

ssize_t export_stream_read(struct export_stream *s, void *buf, size_t cap, struct errinfo *err)
{
    if (s->pos == s->cur.len) {
        sb_free(&s->cur);
        s->pos = 0;
        if (!take_piece(s)) {
            copy_fault(err, &s->err);
            return -1;
        }
    }
    size_t n = s->cur.len - s->pos;
    if (n > cap)
        n = cap;
    if (n)
        memcpy(buf, s->cur.s + s->pos, n);
    s->pos += n;
    return (ssize_t)n;
}

bool export_stream_fault(struct export_stream *s, struct errinfo *err)
{
    if (s->threaded)
        pthread_mutex_lock(&s->lock);
    bool failed = s->failed;
    if (s->threaded)
        pthread_mutex_unlock(&s->lock);
    if (failed)
        copy_fault(err, &s->err);
    return failed;
}

void export_stream_close(struct export_stream *s)
{
    if (!s)
        return;
    if (s->threaded) {
        pthread_mutex_lock(&s->lock);
        s->stop = true;
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->thread, NULL);
    }
    cursor_free(&s->c);
    rawtext_reader_close(&s->w.raw);
    sb_free(&s->w.buf);
    for (size_t k = 0; k < EXPORT_AHEAD; k++)
        sb_free(&s->ring[k]);
    sb_free(&s->cur);
    errinfo_clear(&s->err);
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
