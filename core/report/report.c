/* The report registry, header and sorting. */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/base/display.h"
#include "core/analysis/hta_report.h"
#include "core/critpath/cp_report.h"
#include "core/findings/findings.h"
#include "core/analysis/graphs.h"
#include "core/analysis/kerncat.h"
#include "core/analysis/kernstats.h"
#include "core/analysis/keyavg.h"
#include "core/analysis/ctracks.h"
#include "core/analysis/memtrace.h"
#include "core/analysis/rangecounters.h"
#include "core/analysis/utilization.h"
#include "core/report/invariants.h"
#include "core/report/report.h"
#include "core/report/steptable.h"
#include "core/report/itertable.h"
#include "core/roofline/inductor_cache.h"
#include "core/roofline/roofline.h"
#include "core/report/tabfmt.h"
#include "core/trace/devkind.h"
#include "core/analysis/timeline.h"

static bool build_timeline(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err)
{
    table_list_add(out, timeline_table(a, o->linked_only));
    struct table *per_dev = timeline_device_table(a->t, o->linked_only);
    if (per_dev)
        table_list_add(out, per_dev);
    return true;
}

static bool build_ops(struct analysis *a, const struct report_opts *o, struct table_list *out,
                      char *err)
{
    struct table *tab = opstats_ops_table(a->ops);
    struct graph_share gs;
    if (graphs_share(a->t, &gs))
        table_add_note(tab,
                       "%.1f %% of GPU time (%.3f ms, %llu GPU events) ran in graph replays "
                       "with no launching op: they are counted on the graph launch's row; "
                       "--capture CAPTURE attributes them to the captured ops, -t graphs "
                       "lists them per graph",
                       gs.gpu_ns > 0 ? 100.0 * (double)gs.ns / (double)gs.gpu_ns : 0,
                       (double)gs.ns / 1e6, (unsigned long long)gs.kernels);
    table_list_add(out, tab);
    return true;
}

static bool build_categories(struct analysis *a, const struct report_opts *o,
                             struct table_list *out, char *err)
{
    struct table *tab = opstats_category_table(a->ops);
    int64_t ns[KERNCAT__COUNT];
    if (graphs_by_category(a->t, ns, KERNCAT__COUNT)) {
        /* The rows stay TraceLens's (the graph launch's category); the
         * note says what the replayed kernels are. */
        struct strbuf sb = STRBUF_INIT;
        int64_t total = 0;
        for (int c = 0; c < KERNCAT__COUNT; c++)
            total += ns[c];
        for (int c = 0; c < KERNCAT__COUNT; c++)
            if (ns[c])
                sb_printf(&sb, "%s%s %.3f ms (%.1f %%)", sb.len ? ", " : "", kerncat_name(c),
                          (double)ns[c] / 1e6, total ? 100.0 * (double)ns[c] / (double)total : 0);
        table_add_note(tab,
                       "graph replays with no launching op, counted above under their launch's "
                       "category, by kernel category: %s; --capture CAPTURE attributes them",
                       sb_str(&sb));
        sb_free(&sb);
    }
    table_list_add(out, tab);
    return true;
}

static bool build_unique_args(struct analysis *a, const struct report_opts *o,
                              struct table_list *out, char *err)
{
    table_list_add(out, opstats_unique_args_table(a->ops));
    return true;
}

static bool build_kernels(struct analysis *a, const struct report_opts *o, struct table_list *out,
                          char *err)
{
    table_list_add(out, kernstats_table(a, o->linked_only));
    return true;
}

static bool build_keyavg(struct analysis *a, const struct report_opts *o, struct table_list *out,
                         char *err)
{
    table_list_add(out, keyavg_table(a->t, &o->keyavg));
    return true;
}

static bool build_events(struct analysis *a, const struct report_opts *o, struct table_list *out,
                         char *err)
{
    table_list_add(out, keyavg_events_table(a->t, &o->keyavg));
    return true;
}

static bool build_graphs(struct analysis *a, const struct report_opts *o, struct table_list *out,
                         char *err)
{
    return graphs_tables(a->t, out, err);
}

static bool build_critpath(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err)
{
    struct cp_report_opts co = {0};
    if (o)
        co = (struct cp_report_opts){o->cp_region,    o->cp_edges,   o->cp_lengths_only,
                                     o->cp_whatif,    o->cp_nwhatif, o->cp_data_load,
                                     o->cp_ndata_load};
    return cp_report_tables(a->t, &co, out, err);
}

static bool build_counters(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err)
{
    return rangecounters_tables(a->t, out, err);
}

static bool build_utilization(struct analysis *a, const struct report_opts *o,
                              struct table_list *out, char *err)
{
    return utilization_tables(a->t, out, err);
}

static bool build_ctracks(struct analysis *a, const struct report_opts *o, struct table_list *out,
                          char *err)
{
    return ctracks_tables(a->t, out, err);
}

static bool build_memory(struct analysis *a, const struct report_opts *o, struct table_list *out,
                         char *err)
{
    return memtrace_tables(a->t, out, err);
}

static bool build_findings(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err)
{
    struct findings fs;
    if (!findings_run(a, o ? o->arch : NULL, &fs, err))
        return false;
    findings_tables(a->t, &fs, out);
    findings_free(&fs);
    return true;
}

static bool build_steps(struct analysis *a, const struct report_opts *o, struct table_list *out,
                        char *err)
{
    (void)o;
    return steptable_build(a->t, out, err);
}

static bool build_iterations(struct analysis *a, const struct report_opts *o,
                             struct table_list *out, char *err)
{
    (void)o;
    return itertable_build(a->t, out, err);
}

static bool build_roofline(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err)
{
    struct inductor_cache *ic = NULL;
    if (o && o->inductor_cache && !(ic = inductor_cache_load(o->inductor_cache, err)))
        return false;
    struct roofline *r = roofline_new_ic(a, o ? o->arch : NULL, ic, err);
    if (r) {
        roofline_tables(r, out);
        roofline_free(r);
    }
    inductor_cache_free(ic);
    return r != NULL;
}

/* HTA's analyses (docs/metrics.md §14), all from the analysis's one HTA
 * view (analysis_hta). */
enum hta_which {
    HTA_T_TEMPORAL,
    HTA_T_IDLE,
    HTA_T_KTYPES,
    HTA_T_OVERLAP,
    HTA_T_LAUNCH,
    HTA_T_QUEUE,
    HTA_T_MEMBW
};

static void build_hta(struct analysis *a, const struct report_opts *o, struct table_list *out,
                      enum hta_which w)
{
    const struct hta *h = analysis_hta(a);
    switch (w) {
    case HTA_T_TEMPORAL:
        table_list_add(out, hta_report_temporal(h));
        break;
    case HTA_T_IDLE:
        hta_report_idle(h, o && o->idle_intervals, out);
        break;
    case HTA_T_KTYPES:
        hta_report_kernel_types(h, out);
        break;
    case HTA_T_OVERLAP:
        table_list_add(out, hta_report_overlap(h));
        break;
    case HTA_T_LAUNCH:
        hta_report_launch_stats(h, out);
        break;
    case HTA_T_QUEUE:
        table_list_add(out, hta_report_queue_length(h));
        break;
    case HTA_T_MEMBW:
        table_list_add(out, hta_report_memory_bw(h));
        break;
    }
}

#define HTA_BUILDER(fn, which)                                                                     \
    static bool fn(struct analysis *a, const struct report_opts *o, struct table_list *out,        \
                   char *err)                                                                      \
    {                                                                                              \
        build_hta(a, o, out, which);                                                               \
        return true;                                                                               \
    }
HTA_BUILDER(build_hta_temporal, HTA_T_TEMPORAL)
HTA_BUILDER(build_hta_idle, HTA_T_IDLE)
HTA_BUILDER(build_hta_ktypes, HTA_T_KTYPES)
HTA_BUILDER(build_hta_overlap, HTA_T_OVERLAP)
HTA_BUILDER(build_hta_launch, HTA_T_LAUNCH)
HTA_BUILDER(build_hta_queue, HTA_T_QUEUE)
HTA_BUILDER(build_hta_membw, HTA_T_MEMBW)

const struct report_table report_tables[] = {
    {"timeline", "GPU timeline breakdown: computation, exposed comm/memcpy, idle", build_timeline,
     true},
    {"ops", "GPU time by launcher op (TraceLens ops_summary)", build_ops, true},
    {"categories", "GPU time by op category (ops_summary_by_category)", build_categories, true},
    {"unique-args", "GPU time by op and input shapes (ops_unique_args)", build_unique_args, true},
    {"kernels", "GPU time by kernel, with its launcher (kernel_summary)", build_kernels, true},
    {"key-averages", "PyTorch's key_averages() table", build_keyavg, true},
    {"events", "one row per event, source frames below it (PyTorch's EventList.table())",
     build_events, false},
    {"roofline", "FLOPs, bytes and roofline per op and shapes (TraceLens perf sheets)",
     build_roofline, false},
    {"temporal", "HTA temporal breakdown: idle, compute, non-compute time", build_hta_temporal,
     false},
    {"idle-time", "HTA idle time per stream: host wait, kernel wait, other", build_hta_idle, false},
    {"kernel-types", "HTA time by kernel type and their overlaps; top kernels per type",
     build_hta_ktypes, false},
    {"overlap", "HTA communication time overlapped by computation", build_hta_overlap, false},
    {"launch-stats", "HTA kernel launch statistics (CPU call, GPU time, delay) and outliers",
     build_hta_launch, false},
    {"queue-length", "HTA outstanding GPU operations per stream", build_hta_queue, false},
    {"memory-bw", "HTA memcpy/memset bandwidth statistics", build_hta_membw, false},
    {"graphs", "CUDA/HIP graph replays per graph and per node position", build_graphs, false},
    {"critical-path", "HTA critical path per step: length, share by bound, ops and kernels on it",
     build_critpath, false},
    {"counters", "CUPTI range-profiler counters per kernel with its operators, summed per op",
     build_counters, false},
    {"utilization",
     "kernel occupancy per op; per device GPU utilization, est. SM efficiency and occupancy",
     build_utilization, false},
    {"counter-tracks", "counter (ph C) series: samples, min, time-weighted mean, max per step",
     build_ctracks, false},
    {"memory",
     "[memory] events: per device the peak and its op, allocations by op, the allocated curve",
     build_memory, false},
    {"findings", "what to fix first: each finding's saving on the critical path and evidence",
     build_findings, false},
    {"steps", "one row per profiler step: duration, GPU busy and idle, CPU busy, GPU work, bound",
     build_steps, false},
    {"iterations", "serving iterations: kind, requests, tokens, GPU time, time per token",
     build_iterations, false},
    {NULL, NULL, NULL, false},
};

static const struct report_table *report_table_find(const char *name)
{
    for (const struct report_table *r = report_tables; r->name; r++)
        if (strcmp(r->name, name) == 0)
            return r;
    return NULL;
}

/* The key-averages table reads the trace alone, not the analysis (whose
 * parts the other tables build on first use): on a trace this large it is
 * built on a thread of its own while they are. */
#define KEYAVG_SIDE_MIN_EVENTS 65536

struct keyavg_side {
    pthread_t thread;
    bool running;
    const struct trace *t;
    const struct keyavg_opts *opts;
    struct table *tab;
};

static void *keyavg_side_main(void *arg)
{
    struct keyavg_side *s = arg;
    s->tab = keyavg_table(s->t, s->opts);
    return NULL;
}

/* Whether the comma-separated names ask for the key-averages table and
 * another beside it (a thread for the one table alone would gain nothing). */
static bool names_want_keyavg_beside(const char *names)
{
    char *copy = xstrdup(names), *save = NULL;
    bool all = false, keyavg = false;
    size_t n = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
        all |= strcmp(tok, "all") == 0;
        keyavg |= strcmp(tok, "key-averages") == 0;
    }
    free(copy);
    return all || (keyavg && n > 1);
}

static bool build_table(struct analysis *a, const struct report_table *r,
                        const struct report_opts *o, struct table_list *out, char *err,
                        struct keyavg_side *side)
{
    if (r->build != build_keyavg || !side->running)
        return r->build(a, o, out, err);
    pthread_join(side->thread, NULL);
    side->running = false;
    table_list_add(out, side->tab);
    return true;
}

bool report_build(struct analysis *a, const char *names, const struct report_opts *o,
                  struct table_list *out, char *err)
{
    err[0] = '\0';
    if (!names)
        names = "all";
    /* An HTA view built here is for these tables only: its memory goes
     * back before the tables are written. One the caller built first
     * (analysis_hta) stays for its next call. */
    bool had_hta = a->hta != NULL;
    if (o && o->recompute)
        analysis_mark_recompute(a);
    struct keyavg_side side = {.t = a->t, .opts = o ? &o->keyavg : NULL};
    if (o && a->t->ev.n >= KEYAVG_SIDE_MIN_EVENTS && !a->t->index_one_thread &&
        names_want_keyavg_beside(names))
        side.running = pthread_create(&side.thread, NULL, keyavg_side_main, &side) == 0;
    char *copy = xstrdup(names), *save = NULL;
    bool ok = true;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
        const struct report_table *r = report_table_find(tok);
        if (strcmp(tok, "all") == 0) {
            for (r = report_tables; r->name && ok; r++)
                if (r->in_all)
                    ok = build_table(a, r, o, out, err, &side);
        } else if (!r) {
            snprintf(err, 256, "unknown table '%.64s' (see --help for the list)", tok);
            ok = false;
        } else {
            ok = build_table(a, r, o, out, err, &side);
        }
    }
    free(copy);
    if (side.running) { /* a table before it failed */
        pthread_join(side.thread, NULL);
        table_free(side.tab);
    }
    if (!had_hta)
        analysis_hta_drop(a);
    /* A broken invariant is said on its table, not left a silent wrong number. */
    invariants_annotate(out);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Header                                                                   */
/* ------------------------------------------------------------------------ */

static const char *int_key(const struct trace *t, const char *key, char *buf, size_t n)
{
    const cJSON *v = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, key) : NULL;
    if (cJSON_IsNumber(v) && v->valuedouble >= -9223372036854775808.0 &&
        v->valuedouble < 9223372036854775808.0)
        snprintf(buf, n, "%lld", (long long)v->valuedouble);
    else if (cJSON_IsNumber(v))
        snprintf(buf, n, "%.17g", v->valuedouble); /* no integer type holds it */
    else if (cJSON_IsString(v))
        snprintf(buf, n, "%s", v->valuestring);
    else
        return NULL;
    return buf;
}

/* One header line, its value raw (names from the trace included), made
 * safe for the format: "key:" padded for text, a list item for Markdown. */
static void header_line(struct strbuf *out, bool md, const char *key, const struct strbuf *value)
{
    if (md) {
        sb_printf(out, "- **%s:** ", key);
        tabfmt_md_text(out, sb_str(value), value->len);
    } else {
        sb_printf(out, "%s:%*s", key, (int)(9 - strlen(key)), "");
        display_sanitize(out, sb_str(value), value->len);
    }
    sb_putc(out, '\n');
}

static void header(struct strbuf *out, const struct trace *t, bool md)
{
    struct strbuf v = STRBUF_INIT;
    sb_printf(&v, "%s (%s, %.1f MB of JSON%s)", t->path, t->gzip ? "gzip" : "plain",
              (double)t->json_bytes / 1e6, t->truncated ? ", TRUNCATED" : "");
    header_line(out, md, "trace", &v);
    sb_clear(&v);
    if (t->scope_text) {
        sb_puts(&v, t->scope_text);
        header_line(out, md, "scope", &v);
        sb_clear(&v);
    }
    if (!t->devices.n) {
        /* The devices the work ran on, named by kind ("MTIA 9"). */
        const char *dev = devkind_name(t->device_kind);
        int ids[8];
        size_t nid = 0;
        bool more = false;
        for (uint32_t k = 0; k < t->ev.n && !more; k++) {
            const struct event *e = &t->ev.v[k];
            if (!evk_is_gpu(e->kind) || e->aux == IDX_NONE)
                continue;
            int d = t->gpus.v[e->aux].device;
            size_t j = 0;
            while (j < nid && ids[j] != d)
                j++;
            if (j < nid)
                continue;
            if (nid == ARRAY_SIZE(ids))
                more = true;
            else
                ids[nid++] = d;
        }
        for (size_t j = 0; j < nid; j++)
            sb_printf(&v, "%s%s %d", j ? ", " : "", dev, ids[j]);
        sb_printf(&v, "%s%s(no deviceProperties)", more ? ", ..." : "", nid ? " " : "");
    }
    for (size_t d = 0; d < t->devices.n; d++) {
        const struct device *dev = &t->devices.v[d];
        sb_printf(&v, "%s%d: %s", d ? ", " : "", dev->id,
                  dev->name ? trace_str(t, dev->name) : "(unnamed)");
        if (dev->arch)
            sb_printf(&v, " [%s]", trace_str(t, dev->arch));
    }
    header_line(out, md, "devices", &v);
    char buf[64];
    const cJSON *dist = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, "distributedInfo") : NULL;
    if (cJSON_IsObject(dist)) {
        const cJSON *rank = cJSON_GetObjectItemCaseSensitive(dist, "rank");
        const cJSON *ws = cJSON_GetObjectItemCaseSensitive(dist, "world_size");
        const cJSON *be = cJSON_GetObjectItemCaseSensitive(dist, "backend");
        sb_clear(&v);
        sb_printf(&v, "%d of %d (%s)", cJSON_IsNumber(rank) ? rank->valueint : -1,
                  cJSON_IsNumber(ws) ? ws->valueint : -1,
                  cJSON_IsString(be) ? be->valuestring : "?");
        header_line(out, md, "rank", &v);
    }
    sb_clear(&v);
    if (int_key(t, "cuda_runtime_version", buf, sizeof(buf)))
        sb_printf(&v, "CUDA %s", buf);
    else if (int_key(t, "hip_runtime_version", buf, sizeof(buf)))
        sb_printf(&v, "HIP %s", buf);
    if (v.len)
        header_line(out, md, "runtime", &v);
    sb_clear(&v);
    sb_printf(&v, "%zu", t->ev.n);
    for (int k = 0; k < EVK__COUNT; k++)
        if (t->n_by_kind[k])
            sb_printf(&v, ", %s %llu", ev_kind_name(k), (unsigned long long)t->n_by_kind[k]);
    sb_printf(&v, "; flows %zu", t->flows.n);
    header_line(out, md, "events", &v);
    sb_clear(&v);
    /* The device named by kind: "mtia: 25677 MTIA events" (devkind.h). */
    const char *dev = devkind_name(t->device_kind);
    char key[16];
    size_t kn = 0;
    for (; dev[kn] && kn + 1 < sizeof(key); kn++)
        key[kn] = (char)tolower((unsigned char)dev[kn]);
    key[kn] = '\0';
    sb_printf(&v, "%llu %s event%s, %llu linked to a launch, %llu unlinked",
              (unsigned long long)t->n_gpu, dev, t->n_gpu == 1 ? "" : "s",
              (unsigned long long)(t->n_gpu - t->n_unlinked), (unsigned long long)t->n_unlinked);
    size_t nranges = rangecounters_count(t);
    if (nranges)
        sb_printf(&v, "; %zu CUPTI profiler range%s with hardware counters (-t counters)", nranges,
                  nranges == 1 ? "" : "s");
    header_line(out, md, key, &v);
    sb_clear(&v);
    sb_printf(&v, "%.3f ms of trace", (double)(t->t_end - t->t_start) / 1e6);
    if (t->n_gpu)
        sb_printf(&v, ", %.3f ms of %s activity", (double)(t->gpu_end - t->gpu_start) / 1e6, dev);
    header_line(out, md, "span", &v);
    if (t->n_gpu) {
        /* Busy time, the union of every GPU event, apart from the span
         * above: the span counts the idle gaps between them. */
        struct timeline_breakdown bd;
        timeline_breakdown(t, false, -1, &bd);
        sb_clear(&v);
        sb_printf(&v, "%.3f ms (%.1f %% of the %s span)", (double)bd.busy / 1e6,
                  bd.total > 0 ? 100.0 * (double)bd.busy / (double)bd.total : 0, dev);
        header_line(out, md, "busy", &v);
    }
    if (t->n_captures) {
        sb_clear(&v);
        sb_printf(&v, "%llu of %llu kernels, %.3f ms, attributed through the capture%s",
                  (unsigned long long)t->graph_aligned, (unsigned long long)t->graph_kernels,
                  (double)t->graph_aligned_ns / 1e6, t->n_captures == 1 ? "" : "s");
        header_line(out, md, "captured", &v);
    }
    struct graph_share gs;
    if (graphs_share(t, &gs)) {
        sb_clear(&v);
        sb_printf(&v,
                  "%.1f %% of GPU time (%.3f ms, %llu GPU events in %llu launch%s) ran in graph "
                  "replays with no launching op; attribute it with --capture CAPTURE",
                  gs.gpu_ns > 0 ? 100.0 * (double)gs.ns / (double)gs.gpu_ns : 0,
                  (double)gs.ns / 1e6, (unsigned long long)gs.kernels,
                  (unsigned long long)gs.launches, gs.launches == 1 ? "" : "es");
        header_line(out, md, "graphs", &v);
    }
    sb_free(&v);
}

void report_header_text(struct strbuf *out, const struct trace *t)
{
    header(out, t, false);
}

void report_header_md(struct strbuf *out, const struct trace *t)
{
    sb_puts(out, "### Trace\n\n");
    header(out, t, true);
}

void report_header_json(struct strbuf *out, const struct trace *t)
{
    sb_puts(out, "{\"file\": ");
    sb_put_json_string(out, t->path, strlen(t->path));
    sb_printf(out, ", \"gzip\": %s, \"json_bytes\": %llu, \"truncated\": %s",
              t->gzip ? "true" : "false", (unsigned long long)t->json_bytes,
              t->truncated ? "true" : "false");
    if (t->scope_text) {
        sb_puts(out, ", \"scope\": ");
        sb_put_json_string(out, t->scope_text, strlen(t->scope_text));
    }
    sb_puts(out, ", \"devices\": [");
    for (size_t d = 0; d < t->devices.n; d++) {
        const struct device *dev = &t->devices.v[d];
        const char *name = trace_str(t, dev->name);
        sb_printf(out, "%s{\"id\": %d, \"name\": ", d ? ", " : "", dev->id);
        sb_put_json_string(out, name, strlen(name));
        sb_putc(out, '}');
    }
    sb_printf(out, "], \"events\": %zu, \"events_by_kind\": {", t->ev.n);
    bool first = true;
    for (int k = 0; k < EVK__COUNT; k++)
        if (t->n_by_kind[k]) {
            sb_printf(out, "%s\"%s\": %llu", first ? "" : ", ", ev_kind_name(k),
                      (unsigned long long)t->n_by_kind[k]);
            first = false;
        }
    sb_printf(out,
              "}, \"flows\": %zu, \"device_kind\": \"%s\", \"gpu_events\": %llu, "
              "\"unlinked_gpu_events\": %llu",
              t->flows.n, devkind_name(t->device_kind), (unsigned long long)t->n_gpu,
              (unsigned long long)t->n_unlinked);
    struct timeline_breakdown bd;
    timeline_breakdown(t, false, -1, &bd);
    sb_printf(out, ", \"span_ms\": %.6f, \"gpu_span_ms\": %.6f, \"gpu_busy_ms\": %.6f}",
              (double)(t->t_end - t->t_start) / 1e6, (double)(t->gpu_end - t->gpu_start) / 1e6,
              (double)bd.busy / 1e6);
}

bool report_sort_table(struct table *tab, const char *col)
{
    int found = -1;
    for (size_t c = 0; c < tab->ncols && found < 0; c++) {
        const struct table_col *tc = &tab->cols[c];
        if (strcasecmp(tc->name, col) == 0 || (tc->title && strcasecmp(tc->title, col) == 0))
            found = (int)c;
    }
    if (found < 0)
        found = keyavg_sort_column(tab, col);
    if (found < 0)
        return false;
    table_sort(tab, (size_t)found, tab->cols[found].kind != COL_TEXT);
    return true;
}
