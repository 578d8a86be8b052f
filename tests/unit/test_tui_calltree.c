/* Unit tests: the explorer's call tree (flattening, open/close, open all,
 * hot path, grouping, hiding Python frames, filters, reveal, search) and
 * the timeline lanes, on a small hand-written trace. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/gputime.h"
#include "core/trace/load.h"
#include "tests/unit/testutil.h"
#include "tui/trace/calltree.h"
#include "tui/trace/lanes.h"

#define X(cat, name, tid, ts, dur, args)                                                           \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid              \
    ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}},"
#define K(name, ts, dur, corr)                                                                     \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts       \
    ",\"dur\":" #dur ",\"args\":{\"device\":0,\"stream\":7,\"correlation\":" #corr "}},"

static const char *trace_json =
    "{\"traceEvents\":[" X("user_annotation", "ProfilerStep#1", 1, 0, 1000, "")
        X("python_function", "model.py(10): forward", 1, 10, 900,
          "\"Python id\":1") X("cpu_op", "aten::mm", 1, 20, 100, "\"External id\":1")
            X("cuda_runtime", "cudaLaunchKernel", 1, 30, 10,
              "\"correlation\":100") X("cpu_op", "aten::mm", 1, 200, 100, "\"External id\":2")
                X("cuda_runtime", "cudaLaunchKernel", 1, 210, 10,
                  "\"correlation\":101") X("cpu_op", "aten::mm", 1, 400, 100, "\"External id\":3")
                    X("cuda_runtime", "cudaLaunchKernel", 1, 410, 10, "\"correlation\":102")
                        X("cpu_op", "aten::relu", 1, 600, 50, "\"External id\":4")
                            X("cuda_runtime", "cudaLaunchKernel", 1, 610, 10, "\"correlation\":103")
                                X("cpu_op", "aten::add", 2, 0, 30, "") K("gemm_a", 50, 100, 100)
                                    K("gemm_a", 250, 300, 101) K("gemm_b", 500, 50, 102)
                                        K("relu_k", 700, 20, 103)
                                            K("orphan", 900, 30,
                                              999) "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":"
                                                   "1,\"tid\":1,\"args\":{\"name\":\"main\"}}"
                                                   "]}";

struct fixture {
    struct trace *t;
    struct gputime *gt;
    struct calltree *ct;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    f->t = load_text(trace_json);
    f->gt = gputime_new(f->t);
    f->ct = calltree_new(f->t, f->gt);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    calltree_free(f->ct);
    gputime_free(f->gt);
    trace_free(f->t);
    free(f);
    return 0;
}

/* The rows a full re-flatten gives, computed independently. */
static void ref_flatten(const struct calltree *ct, uint32_t n, uint32_t *out, size_t *k)
{
    out[(*k)++] = n;
    const struct tnode *node = &ct->nodes.v[n];
    if (calltree_is_open(ct, n) && (node->flags & TNF_MATERIALIZED))
        for (uint32_t c = 0; c < node->nkids; c++)
            ref_flatten(ct, node->first + c, out, k);
}

static void check_rows(struct calltree *ct)
{
    calltree_finish(ct);
    assert_false(calltree_pending(ct));
    uint32_t *ref = malloc((ct->nodes.n + 1) * sizeof(uint32_t));
    size_t k = 0;
    for (uint32_t r = 0; r < ct->nroots; r++)
        ref_flatten(ct, r, ref, &k);
    assert_int_equal(k, calltree_nrows(ct));
    for (size_t i = 0; i < k; i++) {
        assert_int_equal(ref[i], calltree_row_node(ct, i));
        const struct tnode *n = calltree_node(ct, ref[i]);
        if (i + 1 < k)
            assert_true(calltree_node(ct, ref[i + 1])->depth <= n->depth + 1);
        if (n->parent != IDX_NONE)
            assert_int_equal(n->depth, calltree_node(ct, n->parent)->depth + 1);
    }
    free(ref);
}

/* Every row (made to the end). */
static size_t nrows(struct calltree *ct)
{
    calltree_finish(ct);
    return calltree_nrows(ct);
}

static const char *row_name(const struct calltree *ct, size_t row, char *buf)
{
    struct strbuf sb = STRBUF_INIT;
    calltree_name(ct, calltree_row_node(ct, row), &sb);
    snprintf(buf, 128, "%s", sb_str(&sb));
    sb_free(&sb);
    return buf;
}

static size_t find_row(struct calltree *ct, const char *name)
{
    char buf[128];
    for (size_t i = 0; i < nrows(ct); i++)
        if (strcmp(row_name(ct, i, buf), name) == 0)
            return i;
    return CT_NOT_FOUND;
}

static void test_roots(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    assert_int_equal(nrows(ct), 3);
    char buf[128];
    assert_string_equal(row_name(ct, 0, buf), "main");
    assert_int_equal(calltree_node(ct, calltree_row_node(ct, 0))->kind, TN_THREAD);
    assert_int_equal(calltree_node(ct, calltree_row_node(ct, 2))->kind, TN_UNLINKED);
    assert_non_null(strstr(row_name(ct, 2, buf), "unlinked"));
    /* Thread: CPU = its top-level spans, GPU = union of what it launched. */
    assert_int_equal(calltree_cpu(ct, calltree_row_node(ct, 0)), 1000 * 1000);
    assert_int_equal(calltree_gpu(ct, calltree_row_node(ct, 0)), 420 * 1000);
    assert_int_equal(calltree_gpu(ct, calltree_row_node(ct, 2)), 30 * 1000);
    /* Roots are shares of all GPU work. */
    assert_int_equal(calltree_parent_gpu(ct, calltree_row_node(ct, 0)), 450 * 1000);
    check_rows(ct);
}

static void test_expand_collapse(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    assert_true(calltree_expand(ct, 0));
    assert_false(calltree_expand(ct, 0));
    assert_int_equal(nrows(ct), 4);
    char buf[128];
    assert_string_equal(row_name(ct, 1, buf), "ProfilerStep#1");
    check_rows(ct);
    calltree_expand_all(ct, 0);
    check_rows(ct);
    /* thread, step, forward, 3 x (mm, launch, kernel), relu, launch, kernel,
     * then the other thread and the unlinked stream. */
    assert_int_equal(nrows(ct), 1 + 1 + 1 + 12 + 2);
    /* Close the step: its rows go, reopening brings them back as they were. */
    assert_true(calltree_collapse(ct, 1));
    assert_int_equal(nrows(ct), 4);
    check_rows(ct);
    assert_true(calltree_toggle(ct, 1));
    assert_int_equal(nrows(ct), 17);
    check_rows(ct);
    /* Leaves cannot open. */
    size_t k = find_row(ct, "relu_k");
    assert_true(k != CT_NOT_FOUND);
    assert_false(calltree_has_children(ct, calltree_row_node(ct, k)));
    assert_false(calltree_expand(ct, k));
    /* Parent row. */
    size_t launch = calltree_parent_row(ct, k);
    assert_string_equal(row_name(ct, launch, buf), "cudaLaunchKernel");
    assert_int_equal(calltree_parent_row(ct, 0), 0);
    /* Close all: only the roots, cursor on the root that held the row. */
    assert_int_equal(calltree_collapse_all(ct, k), 0);
    assert_int_equal(nrows(ct), 3);
    check_rows(ct);
    /* Kernel rows: no CPU time, their own duration as GPU time. */
    calltree_expand_all(ct, 0);
    k = find_row(ct, "gemm_b");
    assert_int_equal(calltree_cpu(ct, calltree_row_node(ct, k)), -1);
    assert_int_equal(calltree_gpu(ct, calltree_row_node(ct, k)), 50 * 1000);
    size_t fwd = find_row(ct, "model.py(10): forward");
    assert_int_equal(calltree_gpu(ct, calltree_row_node(ct, fwd)), 420 * 1000);
}

static void test_hot_path(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    size_t row = calltree_hot_path(ct, 0);
    check_rows(ct);
    uint32_t ev = calltree_event(ct, calltree_row_node(ct, row));
    assert_string_equal(ev_name(f->t, ev), "gemm_a");
    assert_int_equal(trace_ev(f->t, ev)->ts, 250 * 1000);
    /* Only the path is open: thread, step, forward (4 children), mm, launch, kernel. */
    assert_int_equal(nrows(ct), 3 + 1 + 1 + 4 + 1 + 1);
    /* With grouping, the three aten::mm are one node of 400 µs. */
    calltree_set_options(ct, false, true);
    check_rows(ct);
    size_t g = find_row(ct, "aten::mm");
    assert_true(g != CT_NOT_FOUND);
    const struct tnode *gn = calltree_node(ct, calltree_row_node(ct, g));
    assert_int_equal(gn->kind, TN_GROUP);
    assert_int_equal(gn->count, 3);
    assert_int_equal(calltree_gpu(ct, calltree_row_node(ct, g)), 400 * 1000);
    assert_int_equal(calltree_cpu(ct, calltree_row_node(ct, g)), 300 * 1000);
    uint32_t nm;
    const uint32_t *m = calltree_members(ct, calltree_row_node(ct, g), &nm);
    assert_int_equal(nm, 3);
    assert_true(trace_ev(f->t, m[0])->ts < trace_ev(f->t, m[1])->ts);
    row = calltree_hot_path(ct, 0);
    ev = calltree_event(ct, calltree_row_node(ct, row));
    assert_string_equal(ev_name(f->t, ev), "gemm_a");
    check_rows(ct);
    calltree_set_options(ct, false, false);
    check_rows(ct);
}

static void test_hide_python(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    calltree_set_options(ct, true, false);
    calltree_expand_all(ct, 0);
    check_rows(ct);
    for (size_t i = 0; i < nrows(ct); i++) {
        uint32_t ev = calltree_event(ct, calltree_row_node(ct, i));
        if (ev != IDX_NONE)
            assert_int_not_equal(trace_ev(f->t, ev)->kind, EVK_PYTHON);
    }
    assert_int_equal(nrows(ct), 16);
    /* The ops take the frame's place, one level up. */
    size_t mm = find_row(ct, "aten::mm");
    assert_int_equal(calltree_node(ct, calltree_row_node(ct, mm))->depth, 2);
    /* Revealing a Python frame lands on its nearest shown ancestor. */
    uint32_t py = find_event(f->t, "model.py(10): forward");
    size_t r = calltree_reveal(ct, py);
    char buf[128];
    assert_string_equal(row_name(ct, r, buf), "ProfilerStep#1");
    /* Shown again, the open nodes stay open. */
    calltree_set_options(ct, false, false);
    check_rows(ct);
    assert_true(find_row(ct, "model.py(10): forward") != CT_NOT_FOUND);
}

static void test_filter(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    uint32_t relu_k = find_event(f->t, "relu_k");
    assert_int_equal(calltree_set_filter(ct, &relu_k, 1), 1);
    check_rows(ct);
    /* Only the path to the match, opened. */
    assert_int_equal(nrows(ct), 6);
    assert_true(find_row(ct, "aten::mm") == CT_NOT_FOUND);
    assert_true(find_row(ct, "aten::add") == CT_NOT_FOUND);
    size_t k = find_row(ct, "relu_k");
    assert_int_equal(k, 5);
    assert_true(calltree_node(ct, calltree_row_node(ct, k))->flags & TNF_MATCH);
    /* A match's subtree is all there. */
    uint32_t step = find_event(f->t, "ProfilerStep#1");
    calltree_set_filter(ct, &step, 1);
    check_rows(ct);
    calltree_expand_all(ct, 0);
    check_rows(ct);
    assert_true(find_row(ct, "aten::mm") != CT_NOT_FOUND);
    /* Events outside the tree count for nothing. */
    uint32_t meta = IDX_NONE;
    for (uint32_t i = 0; i < f->t->ev.n; i++)
        if (f->t->ev.v[i].kind == EVK_META)
            meta = i;
    if (meta != IDX_NONE)
        assert_int_equal(calltree_set_filter(ct, &meta, 1), 0);
    assert_int_equal(nrows(ct), 0);
    /* No filter: everything is back, with what was open before. */
    calltree_set_filter(ct, NULL, 0);
    check_rows(ct);
    assert_int_equal(nrows(ct), 3);
}

static void test_reveal_and_find(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    uint32_t gb = find_event(f->t, "gemm_b");
    size_t r = calltree_reveal(ct, gb);
    check_rows(ct);
    assert_int_equal(calltree_event(ct, calltree_row_node(ct, r)), gb);
    uint32_t orphan = find_event(f->t, "orphan");
    r = calltree_reveal(ct, orphan);
    assert_int_equal(calltree_event(ct, calltree_row_node(ct, r)), orphan);
    /* Grouped, revealing opens the group too. */
    calltree_collapse_all(ct, 0);
    calltree_set_options(ct, false, true);
    r = calltree_reveal(ct, gb);
    assert_int_equal(calltree_event(ct, calltree_row_node(ct, r)), gb);
    check_rows(ct);
    calltree_set_options(ct, false, false);

    calltree_collapse_all(ct, 0);
    struct pattern p = {0};
    char err[64];
    assert_true(pattern_set(&p, "gemm", err, sizeof(err)));
    bool wrapped;
    char buf[128];
    r = calltree_find(ct, 0, 1, &p, &wrapped);
    assert_string_equal(row_name(ct, r, buf), "gemm_a");
    assert_false(wrapped);
    uint32_t first = calltree_row_node(ct, r);
    r = calltree_find(ct, r, 1, &p, &wrapped);
    assert_string_equal(row_name(ct, r, buf), "gemm_a");
    assert_int_not_equal(calltree_row_node(ct, r), first);
    r = calltree_find(ct, r, 1, &p, &wrapped);
    assert_string_equal(row_name(ct, r, buf), "gemm_b");
    r = calltree_find(ct, r, 1, &p, &wrapped);
    assert_true(wrapped);
    assert_int_equal(calltree_row_node(ct, r), first);
    r = calltree_find(ct, r, -1, &p, &wrapped);
    assert_true(wrapped);
    assert_string_equal(row_name(ct, r, buf), "gemm_b");
    check_rows(ct);
    assert_true(pattern_set(&p, "no such name", err, sizeof(err)));
    assert_int_equal(calltree_find(ct, 0, 1, &p, &wrapped), CT_NOT_FOUND);
    /* Thread labels are searched too. */
    assert_true(pattern_set(&p, "main", err, sizeof(err)));
    r = calltree_find(ct, 1, 1, &p, &wrapped);
    assert_int_equal(r, 0);
    pattern_clear(&p);
}

/* A filter by name gives the rows that a filter by the same events gives. */
static void test_filter_pattern(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    static const char *const pats[] = {"gemm", "aten::mm", "relu", "^aten::", "orphan", "zzz"};
    for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
        struct pattern p = {0};
        char err[64];
        assert_true(pattern_set(&p, pats[i], err, sizeof(err)));
        uint32_t *ev = malloc((f->t->ev.n + 1) * sizeof(uint32_t));
        size_t n = 0;
        for (uint32_t e = 0; e < f->t->ev.n; e++)
            if (calltree_is_tree_event(f->t, e) && pattern_match(&p, ev_name(f->t, e)))
                ev[n++] = e;
        size_t m1 = calltree_set_filter(ct, ev, n);
        calltree_expand_all(ct, 0);
        size_t n1 = nrows(ct);
        uint32_t *rows1 = malloc((n1 + 1) * sizeof(uint32_t));
        for (size_t k = 0; k < n1; k++)
            rows1[k] = calltree_event(ct, calltree_row_node(ct, k));
        calltree_set_filter(ct, NULL, 0);
        size_t m2 = calltree_set_filter_pattern(ct, &p);
        calltree_expand_all(ct, 0);
        assert_int_equal(m1, m2);
        assert_int_equal(nrows(ct), n1);
        for (size_t k = 0; k < n1; k++)
            assert_int_equal(calltree_event(ct, calltree_row_node(ct, k)), rows1[k]);
        check_rows(ct);
        calltree_set_filter(ct, NULL, 0);
        free(rows1);
        free(ev);
        pattern_clear(&p);
    }
}

/* Search: from every node, the next and the previous match are those of a
 * plain pre-order walk of the whole tree (the search skips subtrees that
 * hold no match; this checks it skips nothing else). */
static void test_find_all(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    static const char *const pats[] = {
        "gemm", "aten::mm", "relu", "^aten::", "orphan", "Launch", "main", "model"};
    for (int opt = 0; opt < 4; opt++) {
        calltree_set_options(ct, opt & 1, (opt & 2) != 0);
        for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
            struct pattern p = {0};
            char err[64];
            assert_true(pattern_set(&p, pats[i], err, sizeof(err)));
            /* Every node, open: the walk's order. */
            for (uint32_t r = 0; r < ct->nroots; r++)
                calltree_expand_all(ct, calltree_row_of(ct, r));
            size_t n = nrows(ct);
            uint32_t *order = malloc((n + 1) * sizeof(uint32_t));
            bool *m = calloc(n + 1, sizeof(bool));
            for (size_t k = 0; k < n; k++) {
                order[k] = calltree_row_node(ct, k);
                struct strbuf sb = STRBUF_INIT;
                calltree_name(ct, order[k], &sb);
                m[k] = pattern_match(&p, sb_str(&sb));
                sb_free(&sb);
            }
            for (size_t k = 0; k < n; k++) {
                for (int dir = -1; dir <= 1; dir += 2) {
                    size_t want = SIZE_MAX;
                    for (size_t d = 1; d <= n && want == SIZE_MAX; d++) {
                        size_t j = dir > 0 ? (k + d) % n : (k + n - d) % n;
                        if (m[j])
                            want = j;
                    }
                    calltree_collapse_all(ct, 0);
                    size_t row = calltree_row_of(ct, order[k]);
                    if (row == CT_NOT_FOUND) {
                        /* Start from a node shown: open the way to it. */
                        uint32_t ev = calltree_event(ct, order[k]);
                        if (ev == IDX_NONE)
                            continue;
                        row = calltree_reveal(ct, ev);
                        if (row == CT_NOT_FOUND || calltree_row_node(ct, row) != order[k])
                            continue;
                    }
                    bool wrapped;
                    size_t got = calltree_find(ct, row, dir, &p, &wrapped);
                    if (want == SIZE_MAX) {
                        assert_int_equal(got, CT_NOT_FOUND);
                    } else {
                        assert_true(got != CT_NOT_FOUND);
                        assert_int_equal(calltree_row_node(ct, got), order[want]);
                    }
                }
            }
            free(order);
            free(m);
            pattern_clear(&p);
            calltree_collapse_all(ct, 0);
        }
    }
    calltree_set_options(ct, false, false);
}

/* Random operations keep the rows equal to a full flatten, made all at
 * once or a few at a time between operations (as the explorer does while
 * the user looks); rows once made stay as they are until an operation
 * changes the tree above them. */
static void test_random_ops(void **state)
{
    struct fixture *f = *state;
    struct calltree *ct = f->ct;
    uint64_t x = 88172645463325252ULL;
    uint32_t *prefix = malloc((f->t->ev.n * 2 + 16) * sizeof(uint32_t));
    for (int i = 0; i < 6000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        calltree_ensure(ct, 1 + (x >> 50) % 8);
        size_t n = calltree_nrows(ct);
        size_t row = n ? (size_t)(x >> 8) % n : 0;
        switch ((x >> 40) % 9) {
        case 0:
        case 1:
        case 2:
            calltree_toggle(ct, row);
            break;
        case 3:
            calltree_expand_all(ct, row);
            break;
        case 4:
            if (x % 7 == 0)
                calltree_collapse_all(ct, row);
            break;
        case 5:
            calltree_hot_path(ct, row);
            break;
        case 6:
            calltree_set_options(ct, (x >> 3) & 1, (x >> 4) & 1);
            break;
        case 7:
            calltree_reveal(ct, (uint32_t)((x >> 20) % f->t->ev.n));
            break;
        case 8:
            if ((x >> 5) & 1) {
                uint32_t ev = (uint32_t)((x >> 24) % f->t->ev.n);
                calltree_set_filter(ct, &ev, 1);
            } else {
                calltree_set_filter(ct, NULL, 0);
            }
            break;
        }
        /* Depth and parent links hold on every row made so far. */
        for (size_t k = 0; k < calltree_nrows(ct); k++) {
            const struct tnode *nd = calltree_node(ct, calltree_row_node(ct, k));
            if (k + 1 < calltree_nrows(ct))
                assert_true(calltree_node(ct, calltree_row_node(ct, k + 1))->depth <=
                            nd->depth + 1);
            if (nd->parent != IDX_NONE)
                assert_true(calltree_is_open(ct, nd->parent));
        }
        if ((x >> 33) % 3 == 0) {
            /* Made all the way, the rows made before are its start. */
            size_t made = calltree_nrows(ct);
            memcpy(prefix, ct->rows.v, made * sizeof(uint32_t));
            check_rows(ct);
            assert_true(calltree_nrows(ct) >= made);
            assert_memory_equal(prefix, ct->rows.v, made * sizeof(uint32_t));
        } else {
            calltree_generate(ct, (x >> 20) % 5);
        }
    }
    check_rows(ct);
    free(prefix);
}

static void test_lanes(void **state)
{
    struct fixture *f = *state;
    const struct trace *t = f->t;
    uint32_t ga = find_event(t, "gemm_a");
    uint32_t row = trace_ev(t, ga)->row;
    struct lane l = {0};
    lane_build(&l, t, row, false);
    assert_int_equal(l.iv[LC_COMP].n, 4); /* 50-150, 250-550, 700-720, 900-930 */
    float occ[LC__COUNT * 10];
    lane_bins(&l, 0, 1000 * 1000, 10, occ);
    assert_float_equal(occ[LC_COMP * 10 + 0], 0.5f, 1e-4);
    assert_float_equal(occ[LC_COMP * 10 + 1], 0.5f, 1e-4);
    assert_float_equal(occ[LC_COMP * 10 + 3], 1.0f, 1e-4);
    assert_float_equal(occ[LC_COMP * 10 + 6], 0.0f, 1e-4);
    assert_float_equal(occ[LC_COMP * 10 + 7], 0.2f, 1e-4);
    assert_float_equal(occ[LC_COMM * 10 + 3], 0.0f, 1e-4);
    /* The event at a time, else the nearest within the slack. */
    uint32_t ev = lane_event_at(&l, t, 300 * 1000, 0);
    assert_int_equal(trace_ev(t, ev)->ts, 250 * 1000);
    assert_int_equal(lane_event_at(&l, t, 650 * 1000, 10 * 1000), IDX_NONE);
    ev = lane_event_at(&l, t, 690 * 1000, 20 * 1000);
    assert_string_equal(ev_name(t, ev), "relu_k");
    ev = lane_event_step(&l, t, 0, 1);
    assert_int_equal(trace_ev(t, ev)->ts, 50 * 1000);
    ev = lane_event_step(&l, t, 50 * 1000, 1);
    assert_int_equal(trace_ev(t, ev)->ts, 250 * 1000);
    ev = lane_event_step(&l, t, 250 * 1000, -1);
    assert_int_equal(trace_ev(t, ev)->ts, 50 * 1000);
    assert_int_equal(lane_event_step(&l, t, 50 * 1000, -1), IDX_NONE);
    assert_true(lane_has_event(&l, t, ga));
    /* CPU lane: the innermost op at a time. */
    uint32_t mm = find_event(t, "aten::mm");
    lane_build(&l, t, trace_ev(t, mm)->row, true);
    ev = lane_event_at(&l, t, 35 * 1000, 0);
    assert_int_equal(ev, mm);
    assert_int_equal(lane_event_at(&l, t, 150 * 1000, 0), IDX_NONE);
    lane_free(&l);
}

/* Epoch timestamps (ns since 1970, beyond a double's integer range): a
 * 29 us op seen at 62 ns per column fills every column it covers. */
static void test_lanes_epoch(void **state)
{
    (void)state;
    const int64_t base = INT64_C(1700000000000000000);
    struct lane l = {0};
    VEC_PUSH(&l.iv[LC_CPU], ((struct ival){base + 1000, base + 30000}));
    enum { NCOLS = 128 };
    float occ[LC__COUNT * NCOLS];
    int64_t t0 = base + 5001, t1 = t0 + 62 * NCOLS;
    lane_bins(&l, t0, t1, NCOLS, occ);
    for (int col = 0; col < NCOLS; col++)
        assert_float_equal(occ[LC_CPU * NCOLS + col], 1.0f, 1e-4);
    /* One ns per column: the op's last ns is its column's only busy one. */
    lane_bins(&l, base + 29990, base + 30010, 20, occ);
    for (int col = 0; col < 20; col++)
        assert_float_equal(occ[LC_CPU * 20 + col], col < 10 ? 1.0f : 0.0f, 1e-4);
    lane_free(&l);
}

/* Bars of a GPU lane: kernels that meet are bars of their own, kernels
 * too small for a column share one bar that counts them, and the bar
 * holding the marked event is marked. */
static void test_lane_bars(void **state)
{
    (void)state;
    struct strbuf js = STRBUF_INIT;
    sb_puts(&js, "{\"traceEvents\":[");
    /* k_a 0-100 us, k_b 100-200, k_c 200-250, 20 tiny from 300 (1 us apart,
     * 0.2 us long), k_d 400-500. */
    static const struct {
        const char *name;
        double ts, dur;
    } big[] = {{"k_a", 0, 100}, {"k_b", 100, 100}, {"k_c", 200, 50}, {"k_d", 400, 100}};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
        sb_printf(&js,
                  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s\",\"pid\":0,\"tid\":7,"
                  "\"ts\":%.1f,\"dur\":%.1f,\"args\":{\"device\":0,\"stream\":7}},",
                  big[i].name, big[i].ts, big[i].dur);
    for (int i = 0; i < 20; i++)
        sb_printf(&js,
                  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"tiny\",\"pid\":0,\"tid\":7,"
                  "\"ts\":%d,\"dur\":0.2,\"args\":{\"device\":0,\"stream\":7}}%s",
                  300 + i, i < 19 ? "," : "");
    sb_puts(&js, "]}");
    struct trace *t = load_text(sb_str(&js));
    sb_free(&js);
    uint32_t kb = find_event(t, "k_b"), kd = find_event(t, "k_d");
    struct lane l = {0};
    lane_build(&l, t, trace_ev(t, kb)->row, false);
    assert_int_equal(l.evs.n, 24);
    assert_true(l.only_kernels);
    lane_bars_t bars = {0};
    /* 10 us per column. */
    lane_bars(&l, t, 0, 500 * 1000, 50, kb, &bars);
    assert_int_equal(bars.n, 5);
    static const int want[][3] = {{0, 9, 1}, {10, 19, 1}, {20, 24, 1}, {30, 31, 20}, {40, 49, 1}};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(bars.v[i].c0, want[i][0]);
        assert_int_equal(bars.v[i].c1, want[i][1]);
        assert_int_equal(bars.v[i].n, (uint32_t)want[i][2]);
        assert_int_equal(bars.v[i].marked, i == 1);
    }
    assert_int_equal(bars.v[1].ev, kb);
    assert_int_equal(bars.v[4].ev, kd);
    /* A tiny kernel marks the bar it shares (the lane's events by start:
     * k_a, k_b, k_c, the tiny ones, k_d). */
    uint32_t tiny = l.evs.v[3 + 5];
    assert_string_equal(ev_name(t, tiny), "tiny");
    lane_bars(&l, t, 0, 500 * 1000, 50, tiny, &bars);
    assert_true(bars.v[3].marked);
    /* Where k_a and k_b meet: two bars, side by side. */
    lane_bars(&l, t, 50 * 1000, 150 * 1000, 10, IDX_NONE, &bars);
    assert_int_equal(bars.n, 2);
    assert_int_equal(bars.v[0].c1, 4);
    assert_int_equal(bars.v[1].c0, 5);
    assert_int_equal(bars.v[1].ev, kb);
    /* A column half k_a, half k_b is k_a's tail: k_b has a bar of its own. */
    lane_bars(&l, t, 95 * 1000, 205 * 1000, 11, IDX_NONE, &bars);
    assert_int_equal(bars.n, 3);
    assert_int_equal(bars.v[0].c1, 0);
    assert_int_equal(bars.v[0].n, 1);
    assert_int_equal(bars.v[1].ev, kb);
    assert_int_equal(bars.v[1].c0, 1);
    assert_int_equal(bars.v[1].c1, 9);
    assert_int_equal(bars.v[2].n, 1);
    VEC_FREE(&bars);
    lane_free(&l);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_roots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expand_collapse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hot_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hide_python, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reveal_and_find, setup, teardown),
        cmocka_unit_test_setup_teardown(test_filter_pattern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_find_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lanes, setup, teardown),
        cmocka_unit_test(test_lanes_epoch),
        cmocka_unit_test(test_lane_bars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
