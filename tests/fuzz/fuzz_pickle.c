/* Fuzz target: the pickle reader (with a seal hook that folds some
 * containers into user values, as the snapshot loader does) and the memory
 * snapshot model on the same bytes: loading, replay, queries and every
 * report table. Input may be plain or gzip. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapshot/pickle.h"
#include "core/snapshot/snapreport.h"
#include "core/snapshot/snapshot.h"
#include "core/base/source.h"
#include "core/report/tabfmt.h"
#include "core/symbols/traceback.h"
#include "tests/fuzz/fuzz.h"

struct hook_state {
    uint32_t k_name; /* strtab id of "name" */
    uint64_t sealed;
};

/* Dicts with a string "name" become PK_USER values; every third other
 * container is kept, the rest become PK_USER too. */
static enum status seal(void *ud, struct pickle *p, struct pk_value *v, struct errinfo *err)
{
    struct hook_state *h = ud;
    size_t n;
    const struct pk_value *items = pk_items(p, *v, &n);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        uint64_t u;
        if (pk_as_i64(items[i], &x))
            sum += x & 0xff;
        pk_as_u64(items[i], &u);
    }
    struct pk_value name;
    if (v->tag == PK_DICT && pk_dict_get(p, *v, h->k_name, &name) && name.tag == PK_STR) {
        struct pk_value u = {.tag = PK_USER, .sub = 1, .id = name.id, .i = sum};
        *v = u;
    } else if (h->sealed++ % 3 != 0) {
        struct pk_value u = {.tag = PK_USER, .sub = 2, .id = (uint32_t)n, .i = sum};
        *v = u;
    }
    return ST_OK;
}

static void run_pickle(const uint8_t *data, size_t size)
{
    struct strtab strs;
    strtab_init(&strs);
    struct hook_state h = {.k_name = strtab_intern_cstr(&strs, "name")};
    struct pickle_opts po = {.strs = &strs, .seal = seal, .seal_ud = &h};
    struct source src;
    source_open_mem(&src, "fuzz", data, size);
    struct errinfo err = {0};
    struct pickle *p = NULL;
    struct pk_value root;
    if (pickle_load(&src, &po, &p, &root, &err) == ST_OK) {
        struct strbuf sb = STRBUF_INIT;
        pickle_repr(p, root, &sb);
        pickle_protocol(p);
        sb_free(&sb);
        pickle_free(p);
    } else {
        char *m = errinfo_format(&err);
        free(m);
    }
    source_close(&src);
    errinfo_clear(&err);
    strtab_free(&strs);
}

static void check_tables(struct table_list *tl)
{
    struct strbuf out = STRBUF_INIT;
    static const enum tab_format formats[] = {FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MD};
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        struct tabfmt_opts fo = {.format = formats[f], .all_columns = true};
        sb_clear(&out);
        tabfmt_list(&out, tl, &fo, NULL);
        if (formats[f] == FMT_JSON) {
            cJSON *j = cJSON_ParseWithLength(sb_str(&out), out.len);
            if (!j)
                fuzz_fail("the snapshot report is not valid JSON");
            cJSON_Delete(j);
        }
    }
    sb_free(&out);
}

static void query_device(const struct snapshot *s, uint32_t dev)
{
    uint32_t n = s->devices.v[dev].nentries;
    uint32_t probes[] = {IDX_NONE, 0, n / 2, n ? n - 1 : 0};
    for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
        if (probes[i] != IDX_NONE && probes[i] >= n)
            continue;
        snapshot_allocated_at(s, dev, probes[i]);
        uint32_t *live = NULL;
        snapshot_live_at(s, dev, probes[i], &live);
        free(live);
    }
    int64_t buckets[7];
    snapshot_series_buckets(s, dev, 0, n, 7, buckets);
    if (n > 2)
        snapshot_series_buckets(s, dev, 1, n - 1, 1, buckets);
    for (int a = 0; a < SA__COUNT; a++)
        snapshot_find_action(s, dev, 0, (enum snap_action)a);
    struct snap_sites ss;
    snapshot_sites(s, dev, 2, &ss);
    snapshot_sites_free(&ss);
}

static void run_snapshot(const uint8_t *data, size_t size)
{
    struct errinfo err = {0};
    struct snapshot *s = NULL;
    if (snapshot_load_mem("fuzz", data, size, NULL, &s, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        free(m);
        errinfo_clear(&err);
        return;
    }
    struct table_list tl = {0};
    snapshot_tables(s, NULL, 0, &tl);
    snapshot_tables(s, "trace", 0, &tl);
    snapshot_tables(s, "sites", 3, &tl);
    check_tables(&tl);
    table_list_free(&tl);

    for (uint32_t d = 0; d < s->devices.n; d++) {
        query_device(s, d);
        struct table *t = snapreport_sites(s, d, 1, 0);
        table_free(t);
        t = snapreport_trace(s, d);
        table_free(t);
    }
    struct snap_sites ss;
    snapshot_sites(s, IDX_NONE, 0, &ss);
    snapshot_sites_free(&ss);
    for (uint32_t g = 0; g < s->segments.n; g++) {
        struct snap_frag fr;
        snapshot_segment_frag(s, g, &fr);
    }
    struct strbuf sb = STRBUF_INIT;
    struct traceback tb;
    traceback_init(&tb);
    for (uint32_t st = 0; st < snapshot_nstacks(s); st++) {
        snapshot_top_frame(s, st);
        uint32_t f = snapshot_site_frame(s, st);
        if (f != IDX_NONE)
            snapshot_frame_format(s, f, &sb);
        traceback_clear(&tb);
        snapshot_stack_traceback(s, st, st & 1, &tb);
    }
    traceback_done(&tb);
    sb_free(&sb);
    snapshot_memory(s);
    snapshot_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    run_pickle(data, size);
    run_snapshot(data, size);
    return 0;
}
