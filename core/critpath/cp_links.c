/* Event records and stream waits linked to the launches around them
 * (core/critpath/cp_links.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/critpath/cp_frame.h"
#include "core/critpath/cp_links.h"

struct launch {
    int64_t ts;
    int64_t key1, key2, key3; /* the group: (gpu, stream) or (pid, tid, stream) */
    uint32_t row;
    uint32_t id; /* launch_id: order of all launches by time */
};
static inline bool launch_ts_less(const struct launch *a, const struct launch *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(launch_ts_sort, struct launch, launch_ts_less)
static inline bool launch_key_less(const struct launch *a, const struct launch *b)
{
    if (a->key1 != b->key1)
        return a->key1 < b->key1;
    if (a->key2 != b->key2)
        return a->key2 < b->key2;
    if (a->key3 != b->key3)
        return a->key3 < b->key3;
    return a->ts < b->ts;
}
SORT_DEFINE(launch_key_sort, struct launch, launch_key_less)

static int launch_cmp_key(const struct launch *a, const struct launch *b)
{
    if (a->key1 != b->key1)
        return a->key1 < b->key1 ? -1 : 1;
    if (a->key2 != b->key2)
        return a->key2 < b->key2 ? -1 : 1;
    if (a->key3 != b->key3)
        return a->key3 < b->key3 ? -1 : 1;
    return 0;
}

/* Launches (HTA's _get_cuda_runtime_calls_df): launch calls whose GPU row
 * is on a stream, numbered by time, keyed for a group. */
static size_t launches(const struct cp_frame *f, bool by_thread, struct launch **out)
{
    const struct cp_row *rows = f->rows.v;
    VEC(struct launch) l = {0};
    for (size_t i = 0; i < f->rows.n; i++) {
        const struct cp_row *r = &rows[i];
        if (!(r->flags & CPR_LAUNCH) || r->ic < 0 || rows[r->ic].stream == -1 || rows[r->ic].ic < 0)
            continue;
        const struct cp_row *k = &rows[r->ic];
        struct launch x = {r->ts,
                           by_thread ? cp_row_pid(f, r) : cp_row_pid(f, k),
                           by_thread ? cp_row_tid(f, r) : k->stream,
                           by_thread ? k->stream : 0,
                           (uint32_t)i,
                           0};
        VEC_PUSH(&l, x);
    }
    launch_ts_sort(l.v, l.n);
    for (size_t i = 0; i < l.n; i++)
        l.v[i].id = (uint32_t)i;
    launch_key_sort(l.v, l.n);
    *out = l.v;
    return l.n;
}

static int record_cmp(const void *a, const void *b)
{
    const struct cp_record_link *x = a, *y = b;
    return (x->corr > y->corr) - (x->corr < y->corr);
}

struct corr_stream {
    int64_t corr, stream, gpu;
};
static int cs_cmp(const void *a, const void *b)
{
    const struct corr_stream *x = a, *y = b;
    return (x->corr > y->corr) - (x->corr < y->corr);
}

void cp_links_build(const struct cp_frame *f, struct cp_links *el)
{
    const struct cp_row *rows = f->rows.v;
    size_t n = f->rows.n;
    memset(el, 0, sizeof(*el));
    /* the stream and GPU each record was made on, from the syncs on it */
    VEC(struct corr_stream) cs = {0};
    bool any_record = false, any_wait_call = false, any_wait_event = false;
    for (size_t i = 0; i < n; i++) {
        any_record |= rows[i].role == CPN_EVENT_RECORD;
        any_wait_call |= rows[i].role == CPN_WAIT_EVENT_CALL;
        any_wait_event |= rows[i].role == CPN_STREAM_WAIT_EVENT;
        if (rows[i].wait_stream > -1)
            VEC_PUSH(&cs, ((struct corr_stream){rows[i].wait_corr, rows[i].wait_stream,
                                                cp_row_pid(f, &rows[i])}));
    }
    /* (qsort and bsearch take no NULL array, even of no items) */
    if (cs.n)
        qsort(cs.v, cs.n, sizeof(*cs.v), cs_cmp);
    struct launch *l = NULL;
    size_t nl = 0;
    if (any_record) {
        nl = launches(f, false, &l);
        VEC(struct cp_record_link) rc = {0};
        for (size_t i = 0; i < n; i++) {
            if (rows[i].role != CPN_EVENT_RECORD)
                continue;
            struct corr_stream key = {rows[i].corr, 0, 0};
            const struct corr_stream *m =
                cs.n ? bsearch(&key, cs.v, cs.n, sizeof(*cs.v), cs_cmp) : NULL;
            if (!m)
                continue;
            /* last launch on (gpu, stream) at or before the record */
            struct launch k = {rows[i].ts, m->gpu, m->stream, 0, 0, 0};
            size_t lo = 0, hi = nl;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                int c = launch_cmp_key(&l[mid], &k);
                if (c < 0 || (c == 0 && l[mid].ts <= k.ts))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            /* the group is in time order, ties by launch id: its last
             * launch at or before the record has the greatest id so far */
            int32_t prev =
                lo > 0 && launch_cmp_key(&l[lo - 1], &k) == 0 ? (int32_t)l[lo - 1].row : -1;
            VEC_PUSH(&rc, ((struct cp_record_link){rows[i].corr, prev}));
        }
        if (rc.n)
            qsort(rc.v, rc.n, sizeof(*rc.v), record_cmp);
        el->recs = rc.v;
        el->nrec = rc.n;
        el->have_records = rc.n > 0;
        free(l);
    }
    if (any_wait_call && any_wait_event) {
        nl = launches(f, true, &l);
        VEC(struct cp_wait_link) w = {0};
        for (size_t i = 0; i < n; i++) {
            const struct cp_row *r = &rows[i];
            if (r->role != CPN_WAIT_EVENT_CALL || r->ic < 0 || rows[r->ic].stream == -1)
                continue;
            struct launch k = {r->ts, cp_row_pid(f, r), cp_row_tid(f, r), rows[r->ic].stream, 0, 0};
            size_t lo = 0, hi = nl;
            while (lo < hi) { /* first launch of the group at or after the call */
                size_t mid = (lo + hi) / 2;
                int c = launch_cmp_key(&l[mid], &k);
                if (c < 0 || (c == 0 && l[mid].ts < k.ts))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < nl && launch_cmp_key(&l[lo], &k) == 0)
                VEC_PUSH(&w, ((struct cp_wait_link){(uint32_t)i, (int32_t)l[lo].row}));
        }
        /* rows in ascending order as pushed */
        el->waits = w.v;
        el->nwait = w.n;
        free(l);
    }
    VEC_FREE(&cs);
}

void cp_links_free(struct cp_links *l)
{
    free(l->recs);
    free(l->waits);
    memset(l, 0, sizeof(*l));
}

int32_t cp_links_record_prev(const struct cp_links *el, int64_t corr)
{
    size_t lo = 0, hi = el->nrec;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (el->recs[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < el->nrec && el->recs[lo].corr == corr ? el->recs[lo].prev : -1;
}

int32_t cp_links_wait_next(const struct cp_links *el, uint32_t row)
{
    size_t lo = 0, hi = el->nwait;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (el->waits[mid].row < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < el->nwait && el->waits[lo].row == row ? el->waits[lo].next : -1;
}
