/* torchtop diff: load a control and a test trace and print what changed
 * between them, as tables (the model is core/diff/). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/base/source.h"
#include "core/diff/diffreport.h"
#include "core/job/job_pick.h"
#include "core/job/jobpar.h"
#include "core/report/report.h"
#include "core/report/tabfmt.h"
#include "core/report/xlsx.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"
#include "src/cliout.h"
#include "src/cliscope.h"
#include "src/commands.h"
#include "src/progress.h"
#include "tui/diff/diff_doc.h"
#include "tui/trace/tui.h"
#include "tui/frame/script_steps.h"

struct diff_cli {
    const char *tables;
    struct tabfmt_opts fmt;
    struct tracediff_opts dopts;
    const char *sort;
    const char *out_path;
    const char *xlsx_path;
    char *labels;
    bool no_header;
    bool quiet;
    unsigned threads;
    int rank[2]; /* --control-rank, --test-rank; -1 = none */
    bool report; /* an option that shapes a report was given (-t, -f, -o, ...) */
    bool view;   /* -i: the diff view even without a terminal */
    bool ascii, no_color;
    const char *script;            /* --script: the explorer on the diff, headless */
    const char *script_timing;     /* --script-timing: each step's time */
    int script_lines, script_cols; /* --size */
    int picked[2];      /* the rank a side's file was picked as; -1 = a file named alone */
    struct scope scope; /* applied to each side */
};

static void diff_usage(FILE *f)
{
    fprintf(f, "usage: torchtop diff [OPTIONS] CONTROL TEST\n\n"
               "Compare two PyTorch profiler traces (.json or .json.gz): per name, the counts\n"
               "and total durations of one iteration of each, and test - control (HTA's\n"
               "TraceDiff.compare_traces).\n\n"
               "Options:\n"
               "  -t, --table LIST       tables to print, comma-separated (default: ops):\n");
    for (const struct diffreport_table *r = diffreport_tables; r->name; r++)
        fprintf(f, "                           %-13s %s\n", r->name, r->summary);
    fprintf(f,
            "                           %-13s %s\n"
            "      --device WHICH     cpu (ops, annotations, runtime calls), gpu (kernels,\n"
            "                         memcpy, memset) or all (default)\n"
            "      --control-step N   the control's ProfilerStep#N (default: its first step);\n"
            "                         all: every step, summed\n"
            "      --test-step N      the same for the test\n"
            "      --per-step         with 'all': divide counts and durations by the steps\n"
            "      --control-rank N   with a directory, glob or several files as CONTROL: the\n"
            "                         trace of rank N (numbered by file names, else by order)\n"
            "      --test-rank N      the same for TEST\n"
            "      --short-names      group by HTA's short names (no argument lists, template\n"
            "                         arguments or return types)\n"
            "      --labels A,B       column prefixes instead of control and test\n"
            "  -f, --format FMT       text (default), csv, json or md\n"
            "  -n, --top N            print at most N rows per table\n"
            "  -s, --sort COLUMN      sort every table that has this column (name or title)\n"
            "      --max-name-width N text output: cut names to N columns (default 60)\n"
            "      --all-columns      text/md output: include the detail columns\n"
            "      --csv-raw          CSV: formula-like text cells as they are\n"
            "      --no-header        leave out the header naming the two traces\n"
            "  -o, --output FILE      write to FILE instead of standard output\n"
            "      --xlsx FILE        write the tables as an Excel workbook instead\n"
            "      --threads N        parser threads, shared by the two sides (default: one\n"
            "                         per core, at most 4 a side)\n"
            "  -i, --interactive      open the diff view (the default when standard output\n"
            "                         is a terminal and no report option is given)\n"
            "      --script FILE      run the diff view's steps in FILE headless\n"
            "      --script-timing F  script mode: write each step's time to F\n"
            "      --size WxH         script mode: screen size (default 100x30)\n"
            "      --ascii            the diff view in ASCII only\n"
            "      --no-color         the diff view in monochrome\n"
            "  -q, --quiet            no progress bar\n"
            "  -h, --help             this help\n\n",
            "all", "every table above");
    cliscope_usage(f);
    fprintf(f, "  Each side is scoped alone before the steps above are picked in it.\n\n"
               "Exit status: 0 on success, 1 when the output cannot be written, 2 when an input\n"
               "is malformed or truncated (the diff of what was read before the fault is still\n"
               "printed), 64 on usage errors (also a step or scope that a trace does not have).\n");
}

enum {
    OPT_NAMEW = 256,
    OPT_ALLCOLS,
    OPT_NOHEADER,
    OPT_THREADS,
    OPT_XLSX,
    OPT_CSVRAW,
    OPT_DEVICE,
    OPT_CSTEP,
    OPT_TSTEP,
    OPT_PERSTEP,
    OPT_SHORT,
    OPT_LABELS,
    OPT_CRANK,
    OPT_TRANK,
    OPT_SCRIPT,
    OPT_TIMING,
    OPT_SIZE,
    OPT_ASCII,
    OPT_NOCOLOR,
};

static bool parse_step(const char *s, int64_t *out)
{
    long v;
    if (strcmp(s, "all") == 0) {
        *out = TRACEDIFF_STEP_ALL;
        return true;
    }
    if (!cliout_parse_count(s, 0, INT64_MAX >> 1, &v))
        return false;
    *out = v;
    return true;
}

/* One line for a bad command line, the offending text sanitized. */
static void usage_error(const char *what, const char *arg)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "torchtop diff: ");
    sb_puts(&sb, what);
    if (arg) {
        sb_puts(&sb, " '");
        display_sanitize(&sb, arg, strlen(arg));
        sb_putc(&sb, '\'');
    }
    fprintf(stderr, "%s; try 'torchtop diff --help'\n", sb_str(&sb));
    sb_free(&sb);
}

static int parse_args(int argc, char **argv, struct diff_cli *c, const char **paths)
{
    static const struct option longopts[] = {
        {"table", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"top", required_argument, NULL, 'n'},
        {"row-limit", required_argument, NULL, 'n'},
        {"sort", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
        {"max-name-width", required_argument, NULL, OPT_NAMEW},
        {"all-columns", no_argument, NULL, OPT_ALLCOLS},
        {"no-header", no_argument, NULL, OPT_NOHEADER},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"xlsx", required_argument, NULL, OPT_XLSX},
        {"csv-raw", no_argument, NULL, OPT_CSVRAW},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"control-step", required_argument, NULL, OPT_CSTEP},
        {"test-step", required_argument, NULL, OPT_TSTEP},
        {"per-step", no_argument, NULL, OPT_PERSTEP},
        {"short-names", no_argument, NULL, OPT_SHORT},
        {"labels", required_argument, NULL, OPT_LABELS},
        {"control-rank", required_argument, NULL, OPT_CRANK},
        {"test-rank", required_argument, NULL, OPT_TRANK},
        {"interactive", no_argument, NULL, 'i'},
        {"script", required_argument, NULL, OPT_SCRIPT},
        {"script-timing", required_argument, NULL, OPT_TIMING},
        {"size", required_argument, NULL, OPT_SIZE},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"no-color", no_argument, NULL, OPT_NOCOLOR},
        CLISCOPE_LONGOPTS,
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long v;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":t:f:n:s:o:qhi", longopts, NULL)) != -1) {
        switch (ch) {
        case 't':
        case 'f':
        case 'n':
        case 's':
        case 'o':
        case OPT_NAMEW:
        case OPT_ALLCOLS:
        case OPT_CSVRAW:
        case OPT_NOHEADER:
        case OPT_XLSX:
            c->report = true;
            break;
        default:
            break;
        }
        switch (ch) {
        case 'i':
            c->view = true;
            break;
        case OPT_SCRIPT:
            c->script = optarg;
            break;
        case OPT_TIMING:
            c->script_timing = optarg;
            break;
        case OPT_SIZE:
            if (!script_parse_size(optarg, &c->script_cols, &c->script_lines)) {
                usage_error("--size needs WIDTHxHEIGHT, not", optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_ASCII:
            c->ascii = true;
            break;
        case OPT_NOCOLOR:
            c->no_color = true;
            break;
        case CLISCOPE_STEP:
        case CLISCOPE_SKIP:
        case CLISCOPE_WINDOW:
        case CLISCOPE_MATCH:
        case CLISCOPE_ITERATION:
            if (!cliscope_option("diff", ch, optarg, &c->scope))
                return EXIT_USAGE;
            break;
        case 't':
            c->tables = optarg;
            break;
        case 'f':
            if (!tabfmt_parse(optarg, &c->fmt.format)) {
                usage_error("unknown format (text, csv, json, md)", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n':
            if (!cliout_parse_count(optarg, 0, 1L << 30, &v)) {
                usage_error("--top needs a number, not", optarg);
                return EXIT_USAGE;
            }
            c->fmt.top = (size_t)v;
            break;
        case 's':
            c->sort = optarg;
            break;
        case 'o':
            c->out_path = optarg;
            break;
        case OPT_NAMEW:
            if (!cliout_parse_count(optarg, 8, 100000, &v)) {
                usage_error("--max-name-width needs a number >= 8, not", optarg);
                return EXIT_USAGE;
            }
            c->fmt.max_name_width = (size_t)v;
            break;
        case OPT_ALLCOLS:
            c->fmt.all_columns = true;
            break;
        case OPT_CSVRAW:
            c->fmt.csv_raw = true;
            break;
        case OPT_NOHEADER:
            c->no_header = true;
            break;
        case OPT_THREADS:
            if (!cliout_parse_count(optarg, 1, LOAD_MAX_THREADS, &v)) {
                usage_error("--threads needs a number (1-64), not", optarg);
                return EXIT_USAGE;
            }
            c->threads = (unsigned)v;
            break;
        case OPT_XLSX:
            c->xlsx_path = optarg;
            break;
        case OPT_DEVICE:
            if (strcmp(optarg, "all") == 0)
                c->dopts.device = TRACEDIFF_ALL;
            else if (strcmp(optarg, "cpu") == 0)
                c->dopts.device = TRACEDIFF_CPU;
            else if (strcmp(optarg, "gpu") == 0)
                c->dopts.device = TRACEDIFF_GPU;
            else {
                usage_error("--device is cpu, gpu or all, not", optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_CSTEP:
        case OPT_TSTEP:
            if (!parse_step(optarg, &c->dopts.step[ch == OPT_TSTEP])) {
                usage_error(ch == OPT_TSTEP ? "--test-step needs a step number or all, not"
                                            : "--control-step needs a step number or all, not",
                            optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_CRANK:
        case OPT_TRANK:
            if (!cliout_parse_count(optarg, 0, 1 << 30, &v)) {
                usage_error(ch == OPT_TRANK ? "--test-rank needs a rank number, not"
                                            : "--control-rank needs a rank number, not",
                            optarg);
                return EXIT_USAGE;
            }
            c->rank[ch == OPT_TRANK] = (int)v;
            break;
        case OPT_PERSTEP:
            c->dopts.per_step = true;
            break;
        case OPT_SHORT:
            c->dopts.short_names = true;
            break;
        case OPT_LABELS: {
            const char *comma = strchr(optarg, ',');
            if (!comma || comma == optarg || !comma[1] || strchr(comma + 1, ',')) {
                usage_error("--labels needs two names, A,B, not", optarg);
                return EXIT_USAGE;
            }
            free(c->labels);
            c->labels = xstrdup(optarg);
            c->labels[comma - optarg] = '\0';
            c->dopts.label[0] = c->labels;
            c->dopts.label[1] = c->labels + (comma - optarg) + 1;
            break;
        }
        case 'q':
            c->quiet = true;
            break;
        case 'h':
            diff_usage(stdout);
            return EXIT_OK;
        case ':':
            usage_error("an option needs a value:", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            usage_error("unknown option", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 2) {
        usage_error(argc - optind < 2 ? "two traces expected, CONTROL and TEST"
                                      : "two traces expected, more given",
                    NULL);
        return EXIT_USAGE;
    }
    if (strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0) {
        usage_error("standard input is read once: give at most one trace as '-'", NULL);
        return EXIT_USAGE;
    }
    if ((c->view || c->script) && (c->out_path || c->xlsx_path)) {
        usage_error("-i and --script show the diff view; -o and --xlsx write a report", NULL);
        return EXIT_USAGE;
    }
    if (c->script_timing && !c->script) {
        usage_error("--script-timing needs --script", NULL);
        return EXIT_USAGE;
    }
    if (c->script)
        c->view = true;
    else if (!c->view && !c->report && isatty(STDOUT_FILENO))
        c->view = true;
    paths[0] = argv[optind];
    paths[1] = argv[optind + 1];
    return -1;
}

/* One side being read. */
struct side {
    const char *path;
    struct source src;
    struct trace *t;
    enum status st;
    struct errinfo err;
    unsigned threads; /* parser threads for this side */
    int k;            /* 0 control, 1 test */
    struct sides *all;
    struct tracediff_side prep; /* the side's share of the per-name diff */
    enum scope_result scoped;   /* what scoping it gave */
    char scope_msg[256];        /* why not, for SCOPE_EMPTY */
};

/* Both sides, read at once: one progress line for the two. */
struct sides {
    struct side s[2];
    struct progress prog;
    pthread_mutex_t mu;
    uint64_t done[2], total[2], events[2];
    const struct tracediff_opts *dopts;
    bool index; /* a table reads the call tree (diffreport_needs_index) */
    const struct scope *scope;
};

static void side_progress(void *ud, enum load_phase phase, uint64_t done, uint64_t total,
                          uint64_t events)
{
    struct side *sd = ud;
    struct sides *S = sd->all;
    pthread_mutex_lock(&S->mu);
    S->done[sd->k] = done;
    S->total[sd->k] = total;
    S->events[sd->k] = events;
    /* A side of unknown size (standard input, gzip) leaves the total open. */
    uint64_t tot = S->total[0] && S->total[1] ? S->total[0] + S->total[1] : 0;
    progress_update(&S->prog, phase, S->done[0] + S->done[1], tot, S->events[0] + S->events[1]);
    pthread_mutex_unlock(&S->mu);
}

static bool load_one_side(void *ud, size_t k)
{
    struct sides *S = ud;
    struct side *sd = &S->s[k];
    struct load_opts lo = {
        .threads = sd->threads, .progress = side_progress, .progress_ud = sd, .no_index = true};
    sd->st = trace_load_source(&sd->src, &lo, &sd->t, &sd->err);
    /* What each side needs of itself is computed here, both sides at once. */
    if (sd->t && (S->index || scope_any(S->scope)))
        trace_index(sd->t);
    if (sd->t && scope_any(S->scope)) {
        struct load_opts so = {.threads = sd->threads};
        sd->scoped = cliscope_scope(&sd->t, S->scope, &so, sd->scope_msg, &sd->err);
        if (sd->scoped != SCOPE_OK) {
            trace_free(sd->t);
            sd->t = NULL;
            return true;
        }
    }
    if (sd->t)
        tracediff_side_prepare(sd->t, S->dopts, (int)k, &sd->prep);
    return true;
}

/* Report a side's fault (and what of it is kept) on stderr; false when
 * nothing was kept. */
static bool side_report(struct side *sd)
{
    if (sd->st == ST_OK)
        return true;
    char *m = errinfo_format(&sd->err);
    fprintf(stderr, "torchtop: %s\n", m);
    free(m);
    char *kept = sd->t ? trace_load_kept(sd->t) : NULL;
    if (!kept) {
        trace_free(sd->t);
        sd->t = NULL;
        return false;
    }
    fprintf(stderr, "torchtop: comparing %s%s\n", kept,
            sd->t->partial ? "" : "; the fault dropped none");
    free(kept);
    return true;
}

/* Read both sides, on two threads when there are cores for it (the
 * parser threads shared between them), each indexed when index and
 * prepared for the per-name diff (prep[k]); faults reported in side order.
 * Sets *status to 2 on a fault; t[k] NULL when nothing of side k was
 * kept. */
static void load_sides(const struct diff_cli *c, const char *const *paths, bool index,
                       struct trace **t, struct tracediff_side *prep, int *status)
{
    struct sides S;
    memset(&S, 0, sizeof(S));
    S.dopts = &c->dopts;
    S.index = index;
    S.scope = &c->scope;
    pthread_mutex_init(&S.mu, NULL);
    progress_init(&S.prog, "control and test", c->quiet);
    bool opened[2] = {false, false}, stdin_used = false;
    for (int k = 0; k < 2; k++) {
        struct side *sd = &S.s[k];
        sd->path = paths[k];
        sd->k = k;
        sd->all = &S;
        stdin_used |= strcmp(paths[k], "-") == 0;
        if (source_open(&sd->src, paths[k], &sd->err) == ST_OK) {
            opened[k] = true;
            continue;
        }
        char *m = errinfo_format(&sd->err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        *status = EXIT_BAD_INPUT;
    }
    if (opened[0] && opened[1]) {
        size_t workers = stdin_used ? 1 : jobpar_workers(2, 2);
        for (int k = 0; k < 2; k++)
            S.s[k].threads = jobpar_parse_threads(workers, c->threads);
        jobpar_run(2, workers, load_one_side, NULL, &S);
        progress_done(&S.prog);
        for (int k = 0; k < 2; k++) {
            if (S.s[k].scoped == SCOPE_EMPTY) {
                struct strbuf sb = STRBUF_INIT;
                display_sanitize(&sb, S.s[k].scope_msg, strlen(S.s[k].scope_msg));
                fprintf(stderr, "torchtop diff: %s: %s\n", k ? "test" : "control", sb_str(&sb));
                sb_free(&sb);
                *status = *status ? *status : EXIT_USAGE;
                continue;
            }
            if (S.s[k].st != ST_OK || S.s[k].scoped == SCOPE_IO)
                *status = EXIT_BAD_INPUT;
            if (S.s[k].scoped == SCOPE_IO) {
                char *m = errinfo_format(&S.s[k].err);
                fprintf(stderr, "torchtop: %s\n", m);
                free(m);
                continue;
            }
            side_report(&S.s[k]);
            t[k] = S.s[k].t;
            prep[k] = S.s[k].prep;
        }
    }
    for (int k = 0; k < 2; k++) {
        source_close(&S.s[k].src);
        errinfo_clear(&S.s[k].err);
    }
    pthread_mutex_destroy(&S.mu);
}

/* Sort every table that has the --sort column; none having it is a usage
 * error. */
static int sort_tables(const struct diff_cli *c, struct table_list *tables)
{
    if (!c->sort)
        return EXIT_OK;
    bool any = false;
    for (size_t i = 0; i < tables->items.n; i++)
        any |= report_sort_table(tables->items.v[i], c->sort);
    if (any)
        return EXIT_OK;
    usage_error("no column to sort by in the tables asked for:", c->sort);
    return EXIT_USAGE;
}

static int print_tables(const struct diff_cli *c, struct table_list *tables,
                        const struct tracediff *td)
{
    struct strbuf out = STRBUF_INIT, header = STRBUF_INIT;
    if (c->fmt.format == FMT_JSON) {
        diffreport_header_json(&header, td);
        tabfmt_list(&out, tables, &c->fmt, c->no_header ? NULL : sb_str(&header));
    } else {
        if (!c->no_header && (c->fmt.format == FMT_TEXT || c->fmt.format == FMT_MD)) {
            diffreport_header(&out, td, c->fmt.format == FMT_MD);
            sb_putc(&out, '\n');
        }
        tabfmt_list(&out, tables, &c->fmt, NULL);
    }
    int rc = cliout_write("diff", c->out_path, &out);
    sb_free(&out);
    sb_free(&header);
    return rc;
}

/* The trace file a side names: the argument itself, or the trace of the
 * rank asked for among the files of a directory, a glob or several files
 * (core/job/job_pick.h). NULL after printing why (*rc set). */
static char *resolve_side(struct diff_cli *c, int k, const char *arg, int *rc)
{
    static const char *const side[] = {"control", "test"};
    if (strcmp(arg, "-") == 0) {
        if (c->rank[k] >= 0) {
            fprintf(stderr,
                    "torchtop diff: --%s-rank needs a directory, glob or job, not standard "
                    "input\n",
                    side[k]);
            *rc = EXIT_USAGE;
            return NULL;
        }
        return xstrdup(arg);
    }
    struct job_inputs in;
    struct errinfo err = {0};
    if (job_inputs_resolve(&arg, 1, &in, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        errinfo_clear(&err);
        job_inputs_free(&in);
        *rc = EXIT_BAD_INPUT;
        return NULL;
    }
    char msg[512];
    size_t at = 0;
    char *path = NULL;
    if (job_pick_rank(&in, c->rank[k], &at, msg, sizeof(msg))) {
        path = xstrdup(in.v.v[at].path);
        c->picked[k] = c->rank[k];
    } else {
        struct strbuf sb = STRBUF_INIT;
        sb_printf(&sb, "torchtop diff: %s ", side[k]);
        display_sanitize(&sb, arg, strlen(arg));
        sb_printf(&sb, ": %s; pick %s with --%s-rank N", msg, c->rank[k] < 0 ? "one" : "another",
                  side[k]);
        fprintf(stderr, "%s\n", sb_str(&sb));
        sb_free(&sb);
        *rc = EXIT_USAGE;
    }
    job_inputs_free(&in);
    return path;
}

/* A trace picked by its file name's rank that says otherwise in its
 * distributedInfo: a note, since a job read whole goes by the latter. */
static void check_picked_rank(const struct diff_cli *c, int k, const struct trace *t)
{
    if (!t || c->picked[k] < 0 || !t->top)
        return;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(t->top, "distributedInfo");
    const cJSON *r = cJSON_IsObject(d) ? cJSON_GetObjectItemCaseSensitive(d, "rank") : NULL;
    if (!cJSON_IsNumber(r) || r->valuedouble == (double)c->picked[k])
        return;
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "torchtop diff: note: ");
    display_sanitize(&sb, t->path, strlen(t->path));
    sb_printf(&sb, " was picked as rank %d, but its distributedInfo.rank is %.0f", c->picked[k],
              r->valuedouble);
    fprintf(stderr, "%s\n", sb_str(&sb));
    sb_free(&sb);
}

static int run(struct diff_cli *c, const char **paths)
{
    for (int k = 0; k < 2; k++) {
        const char *outs[] = {c->out_path, c->xlsx_path};
        for (size_t i = 0; i < ARRAY_SIZE(outs); i++) {
            struct errinfo err = {0};
            if (outs[i] && outfile_check_distinct(outs[i], paths[k], &err) != ST_OK) {
                char *m = errinfo_format(&err);
                fprintf(stderr, "torchtop diff: %s\n", m);
                free(m);
                errinfo_clear(&err);
                return EXIT_FAILURE_RUN;
            }
        }
    }
    char msg[512];
    if (!diffreport_check_names(c->tables ? c->tables : "ops", msg, sizeof(msg))) {
        fprintf(stderr, "torchtop diff: %s\n", msg);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    const char *names = c->tables ? c->tables : "ops";
    struct trace *t[2] = {NULL, NULL};
    struct tracediff_side prep[2];
    memset(prep, 0, sizeof(prep));
    struct phase_timer pt;
    phase_timer_init(&pt);
    /* The view reads the merged tree and each event's step. */
    c->dopts.keep_events = c->view;
    load_sides(c, paths, c->view || diffreport_needs_index(names), t, prep, &status);
    for (int k = 0; k < 2; k++)
        check_picked_rank(c, k, t[k]);
    phase_timer_mark(&pt, "load both");
    if (!t[0] || !t[1]) {
        tracediff_side_free(&prep[0]);
        tracediff_side_free(&prep[1]);
        trace_free(t[0]);
        trace_free(t[1]);
        return status;
    }
    struct tracediff *td = tracediff_new_sides(t[0], t[1], &c->dopts, prep, msg, sizeof(msg));
    if (!td) {
        struct strbuf sb = STRBUF_INIT;
        display_sanitize(&sb, msg, strlen(msg));
        fprintf(stderr, "torchtop diff: %s\n", sb_str(&sb));
        sb_free(&sb);
        trace_free(t[0]);
        trace_free(t[1]);
        return status ? status : EXIT_USAGE;
    }
    if (c->view) {
        /* The explorer takes the traces and the diff over. */
        struct tui_opts o = {
            .no_color = c->no_color,
            .ascii = c->ascii,
            .script = c->script,
            .script_timing = c->script_timing,
            .script_lines = c->script_lines,
            .script_cols = c->script_cols,
        };
        int vrc = diff_doc_run(td, &o);
        return status ? status : vrc;
    }
    struct table_list tables = {0};
    phase_timer_mark(&pt, "per-name diff");
    /* A sort or a workbook reads every row; printing only the top. */
    diffreport_build_top(td, names, c->sort || c->xlsx_path ? SIZE_MAX : c->fmt.top, &tables);
    phase_timer_mark(&pt, "tables");
    int rc = sort_tables(c, &tables);
    if (!rc && c->xlsx_path) {
        struct errinfo xerr = {0};
        if (xlsx_write(c->xlsx_path, NULL, &tables, NULL, &xerr) != ST_OK) {
            char *m = errinfo_format(&xerr);
            fprintf(stderr, "torchtop diff: %s\n", m);
            free(m);
            rc = EXIT_FAILURE_RUN;
        }
        errinfo_clear(&xerr);
    } else if (!rc) {
        rc = print_tables(c, &tables, td);
    }
    table_list_free(&tables);
    tracediff_free(td);
    trace_free(t[0]);
    trace_free(t[1]);
    return status ? status : rc;
}

int cmd_diff(int argc, char **argv)
{
    struct diff_cli c = {0};
    char *picked[2] = {NULL, NULL};
    c.dopts.step[0] = c.dopts.step[1] = TRACEDIFF_STEP_FIRST;
    c.rank[0] = c.rank[1] = c.picked[0] = c.picked[1] = -1;
    const char *paths[2];
    int rc = parse_args(argc, argv, &c, paths);
    for (int k = 0; k < 2 && rc < 0; k++)
        if ((picked[k] = resolve_side(&c, k, paths[k], &rc)))
            paths[k] = picked[k];
    if (rc < 0)
        rc = run(&c, paths);
    free(picked[0]);
    free(picked[1]);
    free(c.labels);
    return rc;
}
