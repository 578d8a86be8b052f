/* The memory_timeline table: allocated and reserved bytes after each
 * trace entry, downsampled by the maximum of each run of entries. */
#include "config.h"

#include <stdio.h>

#include "core/snapshot/snaptimeline.h"

enum { MT_DEVICE, MT_INDEX, MT_MS, MT_ALLOCATED, MT_RESERVED, MT_MARK, MT_RUN, MT__COUNT };

static void label_of(const struct snapshot *s, uint32_t dev, char *buf, size_t n)
{
    const struct snap_device *d = &s->devices.v[dev];
    if (d->host)
        snprintf(buf, n, "host");
    else
        snprintf(buf, n, "cuda:%d", d->id);
}

static void add_point(struct table *t, const struct snapshot *s, uint32_t dev, uint32_t i,
                      size_t run, const char *label, int64_t t0, bool have_t0)
{
    const struct snap_device *d = &s->devices.v[dev];
    const struct snap_entry *e = snapshot_entry(s, dev, i);
    size_t r = table_add_row(t);
    table_set_ref(t, r, d->first_entry + i);
    table_set_text(t, r, MT_DEVICE, label);
    table_set_int(t, r, MT_INDEX, i);
    if (have_t0 && (e->flags & SEF_TIME))
        table_set_float(t, r, MT_MS, (double)(e->time_us - t0) / 1000.0);
    table_set_int(t, r, MT_ALLOCATED, d->allocated_after[i]);
    table_set_int(t, r, MT_RESERVED, d->reserved_after[i]);
    table_set_text(t, r, MT_MARK, i == d->peak_idx ? "peak" : "");
    table_set_int(t, r, MT_RUN, (int64_t)run);
}

struct table *snaptimeline_table(const struct snapshot *s, size_t max_points)
{
    static const struct table_col cols[MT__COUNT] = {
        [MT_DEVICE] = {"device", NULL, COL_TEXT, 0, COLF_ASC},
        [MT_INDEX] = {"entry", NULL, COL_INT, 0, COLF_ASC},
        [MT_MS] = {"t_ms", "ms", COL_FLOAT, 3, COLF_ASC},
        [MT_ALLOCATED] = {"allocated_bytes", "allocated", COL_INT, 0, COLF_BYTES},
        [MT_RESERVED] = {"reserved_bytes", "reserved", COL_INT, 0, COLF_BYTES},
        [MT_MARK] = {"mark", NULL, COL_TEXT, 0, COLF_ASC},
        [MT_RUN] = {"entries", NULL, COL_INT, 0, 0},
    };
    struct table *t = table_new("memory_timeline",
                                "Memory over the trace entries: bytes allocated (requested sizes, "
                                "as memory_viz replays them) and reserved (segments) after each",
                                cols, MT__COUNT);
    if (!max_points)
        max_points = 1;
    char label[32];
    for (uint32_t di = 0; di < s->devices.n; di++) {
        const struct snap_device *d = &s->devices.v[di];
        if (!d->nentries)
            continue;
        label_of(s, di, label, sizeof(label));
        int64_t t0 = 0;
        bool have_t0 = false;
        for (uint32_t i = 0; i < d->nentries && !have_t0; i++) {
            const struct snap_entry *e = snapshot_entry(s, di, i);
            if (e->flags & SEF_TIME) {
                t0 = e->time_us;
                have_t0 = true;
            }
        }
        size_t run = (d->nentries + max_points - 1) / max_points;
        if (run > 1)
            table_add_note(t,
                           "%s: %u entries, one point per %zu (the one with the most bytes "
                           "allocated)",
                           label, d->nentries, run);
        for (size_t from = 0; from < d->nentries; from += run) {
            size_t to = from + run < d->nentries ? from + run : d->nentries;
            uint32_t best = (uint32_t)from;
            for (size_t i = from; i < to; i++) {
                /* The peak entry stands for its run, so the mark lands on a point. */
                if (i == d->peak_idx) {
                    best = (uint32_t)i;
                    break;
                }
                if (d->allocated_after[i] > d->allocated_after[best])
                    best = (uint32_t)i;
            }
            add_point(t, s, di, best, to - from, label, t0, have_t0);
        }
    }
    return t;
}
