/* Unit tests: multi-rank jobs (core/job): ranks from file names, inputs
 * from directories and globs, rank numbering and its errors, collective
 * matching and measures on hand-made summaries, summary files round trip. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <zlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/job/job.h"
#include "core/job/job_colls.h"
#include "core/job/job_inputs.h"
#include "core/job/job_tables.h"
#include "core/job/ranksum.h"

static void test_name_rank(void **state)
{
    (void)state;
    assert_int_equal(job_inputs_name_rank("a/rank-3.json"), 3);
    assert_int_equal(job_inputs_name_rank("rank3.json.gz"), 3);
    assert_int_equal(job_inputs_name_rank("trace_rank_12.pt.trace.json"), 12);
    assert_int_equal(job_inputs_name_rank("x/RANK_7.json"), 7);
    assert_int_equal(job_inputs_name_rank("param-dlrm-v100-8rank-rank5.pt.trace.json"), 5);
    assert_int_equal(job_inputs_name_rank("rank0_trace_no_pyfn.json.gz"), 0);
    /* Not a rank: a word that only contains "rank", a number run on. */
    assert_int_equal(job_inputs_name_rank("frank3.json"), -1);
    assert_int_equal(job_inputs_name_rank("rank3x.json"), -1);
    assert_int_equal(job_inputs_name_rank("rank-3/trace.json"), -1);
    assert_int_equal(job_inputs_name_rank("worker0_step_12.json"), -1);
    assert_int_equal(job_inputs_name_rank("rank99999999999.json"), -1);
}

static char *make_dir(void)
{
    char *d = xstrdup("/tmp/torchtop-test-job-XXXXXX");
    assert_non_null(mkdtemp(d));
    static const char *const names[] = {"rank_1.json", "rank_0.json.gz", "notes.txt",
                                        "rank_2.summary"};
    for (size_t i = 0; i < 4; i++) {
        char *p = xasprintf("%s/%s", d, names[i]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs("{}", f);
        fclose(f);
        free(p);
    }
    return d;
}

static void remove_dir(char *d)
{
    static const char *const names[] = {"rank_1.json", "rank_0.json.gz", "notes.txt",
                                        "rank_2.summary"};
    for (size_t i = 0; i < 4; i++) {
        char *p = xasprintf("%s/%s", d, names[i]);
        unlink(p);
        free(p);
    }
    rmdir(d);
    free(d);
}

static void test_resolve(void **state)
{
    (void)state;
    char *d = make_dir();
    struct job_inputs in;
    struct errinfo err = {0};
    const char *args[] = {d};
    assert_int_equal(job_inputs_resolve(args, 1, &in, &err), ST_OK);
    assert_true(in.any_dir);
    assert_int_equal(in.v.n, 3); /* notes.txt left out; sorted by name */
    assert_non_null(strstr(in.v.v[0].path, "rank_0.json.gz"));
    assert_int_equal(in.v.v[0].name_rank, 0);
    assert_int_equal(in.v.v[2].name_rank, 2);
    job_inputs_free(&in);

    /* A file and the directory holding it: the file once. A glob. */
    char *one = xasprintf("%s/rank_1.json", d), *pat = xasprintf("%s/rank_*.json*", d);
    const char *args2[] = {one, d, pat};
    assert_int_equal(job_inputs_resolve(args2, 3, &in, &err), ST_OK);
    assert_int_equal(in.v.n, 3);
    assert_int_equal(in.v.v[0].name_rank, 1);
    job_inputs_free(&in);

    /* A pattern without matches and a missing file are errors. */
    char *none = xasprintf("%s/nothing*.json", d);
    const char *args3[] = {none};
    assert_int_equal(job_inputs_resolve(args3, 1, &in, &err), ST_IO);
    assert_non_null(strstr(err.msg, "matches no file"));
    job_inputs_free(&in);
    errinfo_clear(&err);
    free(one);
    free(pat);
    free(none);
    remove_dir(d);
}

/* A summary with collectives at the given starts and durations (µs). */
static struct ranksum *mk(const char *src, int dist_rank, int ws, const int64_t *ts,
                          const int64_t *dur, size_t n, const char *name)
{
    struct ranksum *s = ranksum_new(src);
    s->dist_rank = dist_rank;
    s->world_size = ws;
    s->name_rank = job_inputs_name_rank(src);
    for (size_t i = 0; i < n; i++) {
        struct rank_coll *c = VEC_ADD(&s->colls);
        c->ts = ts[i] * 1000;
        c->dur = dur[i] * 1000;
        c->stream = 20;
        c->group_size = -1;
        c->in_nelems = c->out_nelems = -1;
        if (name) {
            c->name = strtab_intern_cstr(&s->strs, name);
            c->pg_name = strtab_intern_cstr(&s->strs, "0");
            c->dtype = strtab_intern_cstr(&s->strs, "Float");
            c->group_size = 2;
            c->in_nelems = c->out_nelems = 1 << 20;
        }
    }
    return s;
}

static void test_numbering_errors(void **state)
{
    (void)state;
    int64_t ts[] = {0}, dur[] = {1};
    struct job *j;
    struct errinfo err = {0};
    /* distributedInfo wins over the names. */
    struct ranksum *a[2] = {mk("rank0.json", 1, 2, ts, dur, 1, NULL),
                            mk("rank1.json", 0, 2, ts, dur, 1, NULL)};
    assert_int_equal(job_from_summaries(a, 2, &j, &err), ST_OK);
    assert_int_equal(j->rank_source, JOB_RANK_DIST);
    assert_string_equal(j->ranks.v[0]->source, "rank1.json");
    job_free(j);
    /* Names when distributedInfo is missing somewhere; order when a name is. */
    struct ranksum *b[2] = {mk("x/rank-5.json", -1, -1, ts, dur, 1, NULL),
                            mk("x/rank-2.json", 0, -1, ts, dur, 1, NULL)};
    assert_int_equal(job_from_summaries(b, 2, &j, &err), ST_OK);
    assert_int_equal(j->rank_source, JOB_RANK_NAME);
    assert_int_equal(j->rank_of.v[0], 2);
    job_free(j);
    struct ranksum *c[2] = {mk("b.json", -1, -1, ts, dur, 1, NULL),
                            mk("rank-2.json", -1, -1, ts, dur, 1, NULL)};
    assert_int_equal(job_from_summaries(c, 2, &j, &err), ST_OK);
    assert_int_equal(j->rank_source, JOB_RANK_ORDER);
    assert_string_equal(j->ranks.v[0]->source, "b.json");
    job_free(j);
    /* Two files, one rank. */
    struct ranksum *d[2] = {mk("p.json", 3, 8, ts, dur, 1, NULL),
                            mk("q.json", 3, 8, ts, dur, 1, NULL)};
    assert_int_equal(job_from_summaries(d, 2, &j, &err), ST_FORMAT);
    assert_null(j);
    assert_non_null(strstr(err.msg, "rank 3"));
    assert_non_null(strstr(err.msg, "p.json"));
    errinfo_clear(&err);
    /* Different world sizes. */
    struct ranksum *e[2] = {mk("p.json", 0, 8, ts, dur, 1, NULL),
                            mk("q.json", 1, 4, ts, dur, 1, NULL)};
    assert_int_equal(job_from_summaries(e, 2, &j, &err), ST_FORMAT);
    assert_non_null(strstr(err.msg, "world_size"));
    errinfo_clear(&err);
}

static void test_measures(void **state)
{
    (void)state;
    /* Two all-reduces on 3 ranks: rank 2 arrives last at both. */
    int64_t t0[] = {100, 500}, d0[] = {60, 40};
    int64_t t1[] = {110, 505}, d1[] = {52, 38};
    int64_t t2[] = {150, 530}, d2[] = {10, 12};
    struct ranksum *s[3] = {mk("r0", 0, 3, t0, d0, 2, "allreduce"),
                            mk("r1", 1, 3, t1, d1, 2, "allreduce"),
                            mk("r2", 2, 3, t2, d2, 2, "allreduce")};
    struct job *j;
    struct errinfo err = {0};
    assert_int_equal(job_from_summaries(s, 3, &j, &err), ST_OK);
    struct job_view v;
    job_view_init(&v, j);
    assert_false(v.colls.simplified);
    assert_int_equal(v.colls.insts.n, 2);
    const struct coll_inst *x = &v.colls.insts.v[0];
    assert_string_equal(x->id, "0_0");
    assert_int_equal(x->comm_latency, 10000);
    assert_int_equal(x->skew_start, 50000);
    assert_int_equal(x->skew_end, 160 - 160 + 2000); /* ends 160, 162, 160 */
    assert_int_equal(x->earliest_rank_ix, 0);
    assert_int_equal(x->last_rank_ix, 2);
    assert_true(fabs(x->avg_wait - (50000 + 40000 + 0) / 3.0) < 1e-9);
    assert_int_equal(v.colls.wait_total.v[0], 50000 + 30000);
    assert_int_equal(v.colls.n_last.v[2], 2);
    struct table *t = job_tables_collectives(&v);
    /* algo bw = 4 MiB / 1024 / 10 µs; bus = x 2(n-1)/n with n = 2. */
    int c = table_col_index(t, "algo bw (GB/s)");
    assert_true(fabs(table_cell(t, 0, (size_t)c).f - (4.0 / 1024) / 10e-6) < 1e-6);
    c = table_col_index(t, "bus bw (GB/s)");
    assert_true(fabs(table_cell(t, 0, (size_t)c).f - (4.0 / 1024) / 10e-6) < 1e-6);
    c = table_col_index(t, "rank_2_wait_time");
    assert_true(c > 0 && table_cell(t, 0, (size_t)c).f == 0.0);
    table_free(t);
    t = job_tables_stragglers(&v);
    assert_int_equal(table_cell(t, 0, 0).i, 2); /* least wait first */
    assert_int_equal(table_cell(t, 0, 3).i, 2);
    table_free(t);
    job_view_done(&v);
    job_free(j);
}

/* Kernels with Seq and Comms Id match by them: rank 2's trace starts after
 * the first all-reduce, which matching by order would pair with the
 * second. */
static void test_match_seq(void **state)
{
    (void)state;
    int64_t t0[] = {100, 500}, d0[] = {60, 40};
    int64_t t1[] = {110, 505}, d1[] = {52, 38};
    int64_t t2[] = {530}, d2[] = {12};
    struct ranksum *s[3] = {mk("r0", 0, 3, t0, d0, 2, "allreduce"),
                            mk("r1", 1, 3, t1, d1, 2, "allreduce"),
                            mk("r2", 2, 3, t2, d2, 1, "allreduce")};
    for (int r = 0; r < 3; r++)
        for (size_t i = 0; i < s[r]->colls.n; i++) {
            struct rank_coll *c = &s[r]->colls.v[i];
            c->has_seq = true;
            c->seq = (int64_t)(i + (r == 2 ? 8 : 7));
            c->comms_id = strtab_intern_cstr(&s[r]->strs, "0xabc");
        }
    struct job *j;
    struct errinfo err = {0};
    assert_int_equal(job_from_summaries(s, 3, &j, &err), ST_OK);
    struct job_view v;
    job_view_init(&v, j);
    assert_true(v.colls.by_seq);
    assert_int_equal(v.colls.insts.n, 2);
    assert_string_equal(v.colls.insts.v[0].id, "0xabc_7");
    assert_int_equal(v.colls.insts.v[0].count, 2);
    assert_string_equal(v.colls.insts.v[0].pg_name, "0");
    assert_string_equal(v.colls.insts.v[1].id, "0xabc_8");
    assert_int_equal(v.colls.insts.v[1].count, 3);
    /* Rank 2 arrives last at the second, 25 µs after rank 1. */
    assert_int_equal(v.colls.insts.v[1].last_rank_ix, 2);
    assert_int_equal(v.colls.insts.v[1].skew_start, 30000);
    job_view_done(&v);
    job_free(j);
}

/* Collectives named from NCCL/RCCL kernel names (no "Collective name"
 * arg): the op, and the element type only where the kernel reduces. */
static void test_from_kernel(void **state)
{
    (void)state;
    const char *nm, *dt;
    assert_true(job_colls_from_kernel(
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", &nm,
        &dt));
    assert_string_equal(nm, "allreduce");
    assert_string_equal(dt, "Float");
    assert_true(job_colls_from_kernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", &nm, &dt));
    assert_string_equal(nm, "reducescatter");
    assert_string_equal(dt, "BFloat16");
    /* A copy's int8_t is the byte it moves, not the data's type. */
    assert_true(job_colls_from_kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)",
                                      &nm, &dt));
    assert_string_equal(nm, "sendrecv");
    assert_null(dt);
    assert_true(job_colls_from_kernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*)", &nm, &dt));
    assert_string_equal(nm, "allgather");
    assert_null(dt);
    assert_false(job_colls_from_kernel("ncclKernel_Unheard_of_float", &nm, &dt));
    assert_false(job_colls_from_kernel("void at::native::vectorized_elementwise_kernel", &nm, &dt));
    assert_null(nm);
    assert_int_equal(job_colls_kind("allreduce"), COLL_ALLREDUCE);
    assert_int_equal(job_colls_dtype_bytes("Char"), 1);
}

/* Write text gzip-compressed to path. */
static void write_gz(const char *path, const char *text)
{
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
    assert_int_equal(gzclose(gz), Z_OK);
}

/* Compute intervals past RANKSUM_MAX_BUSY: the smallest doubling of 1 us
 * that leaves few enough closes the gaps below it, and no others. */
static void test_busy_coarsen(void **state)
{
    (void)state;
    struct ranksum *s = ranksum_new("x");
    /* Pairs 1.5 us apart, pairs 10 us apart: 2 x MAX intervals. */
    int64_t t = 0;
    for (int i = 0; i < RANKSUM_MAX_BUSY; i++) {
        *VEC_ADD(&s->busy) = (struct ival){t, t + 100};
        *VEC_ADD(&s->busy) = (struct ival){t + 1600, t + 1700};
        t += 11700;
    }
    ranksum_coarsen_busy(s);
    assert_int_equal(s->busy_gap_ns, 2000);
    assert_int_equal(s->busy.n, RANKSUM_MAX_BUSY);
    assert_int_equal(s->busy.v[1].start, 11700);
    assert_int_equal(s->busy.v[0].end, 1700);
    /* Few intervals stay exact. */
    s->busy.n = 5;
    ranksum_coarsen_busy(s);
    assert_int_equal(s->busy_gap_ns, 0);
    ranksum_free(s);
}

static void test_summary_roundtrip(void **state)
{
    (void)state;
    int64_t ts[] = {1700000000000001, 1700000000000500}, dur[] = {3, 7};
    struct ranksum *s = mk("dir/rank-4.json", 4, 8, ts, dur, 2, "allgather");
    s->tl.computation = 123456789;
    s->tl.total = 987654321;
    s->nsteps = 2;
    s->steps_ns = 42;
    *VEC_ADD(&s->ops) = (struct rank_op){strtab_intern_cstr(&s->strs, "aten::mm \"q\""), 3, 99};
    *VEC_ADD(&s->busy) = (struct ival){1700000000000000, 1700000000000002};
    *VEC_ADD(&s->busy) = (struct ival){1700000000000010, 1700000000000500};
    s->busy_gap_ns = 0;
    /* The second collective carries the kernel's Seq and Comms Id. */
    s->colls.v[1].has_seq = true;
    s->colls.v[1].seq = 41;
    s->colls.v[1].comms_id = strtab_intern_cstr(&s->strs, "12345");
    char path[] = "/tmp/torchtop-test-summary-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct errinfo err = {0};
    assert_int_equal(ranksum_write(s, path, &err), ST_OK);
    assert_true(ranksum_is_summary(path));
    struct ranksum *r;
    assert_int_equal(ranksum_read(path, &r, &err), ST_OK);
    assert_string_equal(r->source, "dir/rank-4.json");
    assert_int_equal(r->dist_rank, 4);
    assert_int_equal(r->world_size, 8);
    assert_int_equal(r->tl.computation, 123456789);
    assert_int_equal(r->tl.total, 987654321);
    assert_int_equal(r->colls.n, 2);
    assert_int_equal(r->colls.v[0].ts, ts[0] * 1000);
    assert_int_equal(r->colls.v[1].dur, 7000);
    assert_string_equal(strtab_str(&r->strs, r->colls.v[0].name), "allgather");
    assert_false(r->colls.v[0].has_seq);
    assert_true(r->colls.v[1].has_seq);
    assert_int_equal(r->colls.v[1].seq, 41);
    assert_string_equal(strtab_str(&r->strs, r->colls.v[1].comms_id), "12345");
    assert_int_equal(r->ops.n, 1);
    assert_string_equal(strtab_str(&r->strs, r->ops.v[0].name), "aten::mm \"q\"");
    assert_int_equal(r->busy.n, 2);
    assert_int_equal(r->busy.v[0].start, 1700000000000000);
    assert_int_equal(r->busy.v[1].end, 1700000000000500);
    assert_int_equal(r->busy_gap_ns, 0);
    ranksum_free(r);
    /* Version 1 (no compute intervals) is still read, the lanes told so. */
    write_gz(path, "{\"torchtop_rank_summary\": 1, \"source\": \"a/rank-1.json\", \"rank\": 1, "
                   "\"world_size\": 2, \"timeline_ns\": {\"computation\": 1, \"exposed_comm\": 0, "
                   "\"exposed_memcpy\": 0, \"busy\": 1, \"idle\": 0, \"total\": 1, "
                   "\"total_comm\": 0, \"total_memcpy\": 0, \"events\": 1}, \"steps\": "
                   "{\"count\": 0, \"total_ns\": 0}, \"collectives_base_ns\": \"5\", "
                   "\"collectives\": [[0, 3, 7, null, null, null, null, null, null, null]], "
                   "\"ops\": []}");
    assert_int_equal(ranksum_read(path, &r, &err), ST_OK);
    assert_int_equal(r->busy_gap_ns, -1);
    assert_int_equal(r->busy.n, 0);
    assert_int_equal(r->colls.v[0].ts, 5);
    ranksum_free(r);
    /* Version 2 with compute intervals that overlap is refused, named. */
    write_gz(path, "{\"torchtop_rank_summary\": 2, \"source\": \"a/rank-1.json\", \"rank\": 1, "
                   "\"world_size\": 2, \"timeline_ns\": {\"computation\": 1, \"exposed_comm\": 0, "
                   "\"exposed_memcpy\": 0, \"busy\": 1, \"idle\": 0, \"total\": 1, "
                   "\"total_comm\": 0, \"total_memcpy\": 0, \"events\": 1}, \"steps\": "
                   "{\"count\": 0, \"total_ns\": 0}, \"collectives_base_ns\": \"5\", "
                   "\"collectives\": [], \"ops\": [], \"compute_gap_ns\": 0, "
                   "\"compute_base_ns\": \"100\", \"compute\": [0, 10, 5, 10]}");
    assert_int_equal(ranksum_read(path, &r, &err), ST_FORMAT);
    assert_non_null(strstr(err.msg, "\"compute\""));
    errinfo_clear(&err);
    /* A file that is not a summary is refused with its name. */
    FILE *f = fopen(path, "w");
    fputs("{\"torchtop_rank_summary\": 9}", f);
    fclose(f);
    assert_int_equal(ranksum_read(path, &r, &err), ST_FORMAT);
    assert_non_null(strstr(err.msg, "version"));
    errinfo_clear(&err);
    unlink(path);
    ranksum_free(s);
}

/* A summary past RANKSUM_MAX_TEXT is not written (the reader would refuse
 * it): ST_LIMIT naming the trace, and no file left behind. */
static void test_summary_write_limit(void **state)
{
    (void)state;
    int64_t ts[] = {1000}, dur[] = {3};
    size_t n = RANKSUM_MAX_TEXT + 1;
    char *big = xmalloc(n + 1);
    memset(big, 'a', n);
    big[n] = 0;
    struct ranksum *s = mk("dir/rank-0.json", 0, 1, ts, dur, 1, big);
    free(big);
    char dir[] = "/tmp/torchtop-test-summary-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = xasprintf("%s/big.summary", dir);
    struct errinfo err = {0};
    assert_int_equal(ranksum_write(s, path, &err), ST_LIMIT);
    assert_string_equal(err.file, "dir/rank-0.json");
    assert_non_null(strstr(err.msg, "RANKSUM_MAX_TEXT"));
    assert_int_equal(access(path, F_OK), -1);
    errinfo_clear(&err);
    assert_int_equal(rmdir(dir), 0);
    free(path);
    ranksum_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_rank),           cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_numbering_errors),    cmocka_unit_test(test_measures),
        cmocka_unit_test(test_summary_roundtrip),   cmocka_unit_test(test_busy_coarsen),
        cmocka_unit_test(test_summary_write_limit), cmocka_unit_test(test_from_kernel),
        cmocka_unit_test(test_match_seq),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
