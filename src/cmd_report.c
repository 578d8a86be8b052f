/* torchtop report: load a trace and print its analyses as tables. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/analysis/analysis.h"
#include "core/critpath/cp_report.h"
#include "core/critpath/cp_whatif.h"
#include "core/job/job_tables.h"
#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/symbols/folded.h"
#include "core/trace/load.h"
#include "core/trace/tracecache.h"
#include "core/report/perstep.h"
#include "core/report/report.h"
#include "core/snapshot/snapreport.h"
#include "core/snapshot/snapshot.h"
#include "core/snapshot/snaptimeline.h"
#include "core/base/source.h"
#include "core/report/tabfmt.h"
#include "core/report/xlsx.h"
#include "core/base/svg.h"
#include "core/report/svg_flame.h"
#include "core/report/svg_roofline.h"
#include "core/roofline/devices.h"
#include "src/cmd_job.h"
#include "src/cliout.h"
#include "src/cliscope.h"
#include "src/commands.h"
#include "core/trace/capture.h"
#include "core/trace/tree.h"
#include "src/progress.h"

struct report_cli {
    const char *tables;
    struct tabfmt_opts fmt;
    struct report_opts ropts;
    const char *sort;
    const char *out_path;
    const char *xlsx_path;
    const char *svg_path;
    bool no_header;
    bool quiet;
    bool flow_links;
    bool no_cache;
    unsigned threads;
    enum folded_metric metric;
    const char *captures[16]; /* --capture, in order */
    size_t ncaptures;
    const char *whatif[16];    /* --what-if, in order */
    const char *data_load[16]; /* --cp-data-load, in order */
    struct scope scope;
    bool per_step;
};

static void report_usage(FILE *f)
{
    fprintf(f, "usage: torchtop report [OPTIONS] TRACE\n"
               "       torchtop report [OPTIONS] TRACE... | DIR | 'GLOB'   (one multi-rank job)\n\n"
               "Print the analyses of a PyTorch profiler trace (.json or .json.gz; - for stdin),\n"
               "or the tables of a CUDA memory snapshot (.pickle or .pickle.gz: summary, sites,\n"
               "segments by default; -t trace for the trace entries, -n for the number of sites).\n"
               "Several traces of one job (files, a directory, a glob, or rank summaries written\n"
               "by 'torchtop summarize') give the cross-rank tables instead:\n");
    for (const struct job_table *j = job_tables; j->name; j++)
        fprintf(f, "                           %-13s %s\n", j->name, j->summary);
    fprintf(f, "                           %-13s %s\n", "temporal...",
            "HTA's tables below, per rank (a leading rank column; traces, not summaries)");
    fprintf(f, "\n"
               "Options:\n"
               "  -t, --table LIST       tables to print, comma-separated (default: all):\n");
    for (const struct report_table *r = report_tables; r->name; r++)
        fprintf(f, "                           %-13s %s\n", r->name, r->summary);
    fprintf(f, "                           %-13s %s\n", "folded",
            "folded stacks for flamegraph.pl / speedscope (alone, as text; see --metric)");
    fprintf(
        f,
        "  -f, --format FMT       text (default), csv, json or md\n"
        "      --capture CAPTURE  graph capture trace (or a directory of them, repeatable):\n"
        "                         attribute graph-replayed kernels to the captured ops\n"
        "  -n, --top N            print at most N rows per ranked table (also --row-limit)\n"
        "  -s, --sort COLUMN      sort every table that has this column (name or title;\n"
        "                         for key-averages also PyTorch's sort_by keys, e.g.\n"
        "                         self_cuda_time_total); none having it is an error\n"
        "      --linked-only      count only GPU events linked to a launch (TraceLens's\n"
        "                         numbers need --flow-links too)\n"
        "      --flow-links       link GPU work to a launch only through an ac2g flow start\n"
        "                         (TraceLens's rule; default: by correlation id alone)\n"
        "      --group-by-shape   key-averages: one row per op name and input shapes\n"
        "      --group-by-stack N key-averages: one row per op name and N source frames\n"
        "      --top-level-only   key-averages: only events with no enclosing op\n"
        "      --time-unit UNIT   key-averages: s, ms or us (default us)\n"
        "      --arch NAME|FILE   roofline: device peaks by built-in name or TraceLens arch JSON\n"
        "      --inductor-cache DIR  roofline: torch.compile's Inductor cache, read for Triton\n"
        "                         kernels the trace records without their sizes\n"
        "      --recompute        ops, unique-args, roofline: tell activation checkpointing's\n"
        "                         recomputed forward ops apart (is_recompute column)\n"
        "      --metric M         folded: self_cpu (default) or self_device\n"
        "      --idle-intervals   idle-time: add HTA's idle interval statistics\n"
        "      --region A[:I]     critical-path: the I-th (from 0) event named with A, as\n"
        "                         HTA picks a region (\"\" for the whole trace); by\n"
        "                         default each ProfilerStep#N\n"
        "      --cp-edges         critical-path: also list the path's edges\n"
        "      --what-if T=F      critical-path: the path's new length if the edges of T\n"
        "                         ran F times as long (0 to 1000; repeatable). T is a\n"
        "                         bound (cpu_bound, gpu_kernel_launch_overhead...), an\n"
        "                         edge type, an event name (an op: its own time and the\n"
        "                         GPU work it launched) or re:REGEX (POSIX extended)\n"
        "      --cp-data-load RE  critical-path: CPU events whose name RE matches (POSIX\n"
        "                         extended; repeatable) are data loading, as HTA's\n"
        "                         data_load_events: nodes of the graph, bound_by data_loading\n"
        "      --max-name-width N text output: cut names to N columns (default 60)\n"
        "      --all-columns      text/md output: include the detail columns\n"
        "      --csv-raw          CSV: write text cells that begin with = + - @ as they\n"
        "                         are (by default they get a leading ' so that a\n"
        "                         spreadsheet does not run them as formulas)\n"
        "      --per-step         the tables of each profiler step in turn, one table per\n"
        "                         name with a leading step column (the rows of --step N)\n"
        "      --no-header        leave out the trace header\n"
        "  -o, --output FILE      write to FILE instead of standard output\n"
        "      --xlsx FILE        write the tables as an Excel workbook instead, charts first\n"
        "      --svg FILE         with -t roofline: the roofline plot as SVG; with -t folded:\n"
        "                         an interactive flame graph (hover, click to zoom) as SVG\n"
        "      --threads N        parser threads (default: one per core, at most 4)\n"
        "      --no-cache         neither read nor write the trace's cache (a trace of\n"
        "                         64 MiB or more opens again from ~/.cache/torchtop)\n"
        "  -q, --quiet            no progress bar\n"
        "  -h, --help             this help\n\n");
    cliscope_usage(f);
    fprintf(f, "\n"
               "Exit status: 0 on success, 1 when the output cannot be written, 2 when the input\n"
               "is malformed or truncated (the report of everything read before the fault is\n"
               "still printed; faults that lose nothing, such as invalid UTF-8, keep every\n"
               "event), 64 on usage errors (also a scope the trace does not have).\n");
}

enum {
    OPT_LINKED = 256,
    OPT_RECOMPUTE,
    OPT_SHAPE,
    OPT_STACK,
    OPT_TOPLEVEL,
    OPT_UNIT,
    OPT_NAMEW,
    OPT_ALLCOLS,
    OPT_NOHEADER,
    OPT_THREADS,
    OPT_ARCH,
    OPT_INDUCTOR_CACHE,
    OPT_FLOWLINKS,
    OPT_NOCACHE,
    OPT_XLSX,
    OPT_METRIC,
    OPT_CSVRAW,
    OPT_SVG,
    OPT_IDLEINT,
    OPT_CPREGION,
    OPT_CPEDGES,
    OPT_WHATIF,
    OPT_CPDATALOAD,
    OPT_CAPTURE,
    OPT_PERSTEP,
};

/* One line for a bad command line: the option (`arg` as given, or the
 * short option `opt` getopt found inside it), what is wrong, where help is. */
static void usage_error(const char *arg, int opt, const char *what)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "torchtop report: ");
    if (opt && opt != '-' && arg && arg[0] == '-' && arg[1] != '-') {
        char o = (char)opt;
        sb_puts(&sb, "option '-");
        display_sanitize(&sb, &o, 1);
        sb_printf(&sb, "' %s", what);
    } else if (arg) {
        /* A long option: its name, without any "=value". */
        const char *eq = strchr(arg, '=');
        sb_puts(&sb, "option '");
        display_sanitize(&sb, arg, eq ? (size_t)(eq - arg) : strlen(arg));
        sb_printf(&sb, "' %s", what);
    } else {
        sb_puts(&sb, what);
    }
    fprintf(stderr, "%s; try 'torchtop report --help'\n", sb_str(&sb));
    sb_free(&sb);
}

/* Whether the -t list names the critical path. */
static bool names_critical_path(const char *tables)
{
    bool yes = false;
    char *copy = tables ? xstrdup(tables) : NULL, *save = NULL;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !yes;
         tok = strtok_r(NULL, ",", &save))
        yes = strcmp(tok, "critical-path") == 0;
    free(copy);
    return yes;
}

static int parse_args(int argc, char **argv, struct report_cli *c, const char **path)
{
    static const struct option longopts[] = {
        {"table", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"top", required_argument, NULL, 'n'},
        {"row-limit", required_argument, NULL, 'n'},
        {"sort", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
        {"linked-only", no_argument, NULL, OPT_LINKED},
        {"group-by-shape", no_argument, NULL, OPT_SHAPE},
        {"group-by-stack", required_argument, NULL, OPT_STACK},
        {"top-level-only", no_argument, NULL, OPT_TOPLEVEL},
        {"time-unit", required_argument, NULL, OPT_UNIT},
        {"max-name-width", required_argument, NULL, OPT_NAMEW},
        {"all-columns", no_argument, NULL, OPT_ALLCOLS},
        {"no-header", no_argument, NULL, OPT_NOHEADER},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"arch", required_argument, NULL, OPT_ARCH},
        {"inductor-cache", required_argument, NULL, OPT_INDUCTOR_CACHE},
        {"flow-links", no_argument, NULL, OPT_FLOWLINKS},
        {"xlsx", required_argument, NULL, OPT_XLSX},
        {"metric", required_argument, NULL, OPT_METRIC},
        {"csv-raw", no_argument, NULL, OPT_CSVRAW},
        {"svg", required_argument, NULL, OPT_SVG},
        {"idle-intervals", no_argument, NULL, OPT_IDLEINT},
        {"region", required_argument, NULL, OPT_CPREGION},
        {"cp-edges", no_argument, NULL, OPT_CPEDGES},
        {"what-if", required_argument, NULL, OPT_WHATIF},
        {"cp-data-load", required_argument, NULL, OPT_CPDATALOAD},
        {"capture", required_argument, NULL, OPT_CAPTURE},
        {"recompute", no_argument, NULL, OPT_RECOMPUTE},
        {"no-cache", no_argument, NULL, OPT_NOCACHE},
        CLISCOPE_LONGOPTS,
        {"per-step", no_argument, NULL, OPT_PERSTEP},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long v;
    int ch;
    optind = 1;
    opterr = 0; /* usage_error says it in one line */
    while ((ch = getopt_long(argc, argv, ":t:f:n:s:o:qh", longopts, NULL)) != -1) {
        switch (ch) {
        case 't':
            c->tables = optarg;
            break;
        case 'f':
            if (!tabfmt_parse(optarg, &c->fmt.format)) {
                fprintf(stderr, "torchtop report: unknown format '%s' (text, csv, json, md)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n':
            if (!cliout_parse_count(optarg, 0, 1L << 30, &v)) {
                fprintf(stderr, "torchtop report: --top needs a number\n");
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
        case OPT_LINKED:
            c->ropts.linked_only = true;
            break;
        case OPT_RECOMPUTE:
            c->ropts.recompute = true;
            break;
        case OPT_SHAPE:
            c->ropts.keyavg.group_by_shape = true;
            break;
        case OPT_STACK:
            if (!cliout_parse_count(optarg, 1, 64, &v)) {
                fprintf(stderr, "torchtop report: --group-by-stack needs a frame count (1-64)\n");
                return EXIT_USAGE;
            }
            c->ropts.keyavg.group_by_stack = (int)v;
            break;
        case OPT_TOPLEVEL:
            c->ropts.keyavg.top_level_only = true;
            break;
        case OPT_UNIT:
            if (strcmp(optarg, "us") == 0)
                c->ropts.keyavg.time_scale = 1e3;
            else if (strcmp(optarg, "ms") == 0)
                c->ropts.keyavg.time_scale = 1e6;
            else if (strcmp(optarg, "s") == 0)
                c->ropts.keyavg.time_scale = 1e9;
            else {
                fprintf(stderr, "torchtop report: --time-unit is s, ms or us\n");
                return EXIT_USAGE;
            }
            c->ropts.keyavg.time_unit = optarg;
            break;
        case OPT_NAMEW:
            if (!cliout_parse_count(optarg, 8, 100000, &v)) {
                fprintf(stderr, "torchtop report: --max-name-width needs a number >= 8\n");
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
        case OPT_IDLEINT:
            c->ropts.idle_intervals = true;
            break;
        case OPT_CPREGION:
            c->ropts.cp_region = optarg;
            break;
        case OPT_CPEDGES:
            c->ropts.cp_edges = true;
            break;
        case OPT_WHATIF: {
            struct cp_whatif_rule r;
            char msg[256];
            if (c->ropts.cp_nwhatif == ARRAY_SIZE(c->whatif)) {
                usage_error(NULL, 0, "--what-if is given more than 16 times");
                return EXIT_USAGE;
            }
            if (!cp_whatif_parse(optarg, &r, msg)) {
                char what[300];
                snprintf(what, sizeof(what), "--what-if %s", msg);
                usage_error(NULL, 0, what);
                return EXIT_USAGE;
            }
            cp_whatif_free(&r);
            c->whatif[c->ropts.cp_nwhatif++] = optarg;
            c->ropts.cp_whatif = c->whatif;
            break;
        }
        case OPT_CPDATALOAD: {
            if (c->ropts.cp_ndata_load == ARRAY_SIZE(c->data_load)) {
                usage_error(NULL, 0, "--cp-data-load is given more than 16 times");
                return EXIT_USAGE;
            }
            regex_t re;
            char msg[256];
            c->data_load[c->ropts.cp_ndata_load] = optarg;
            struct cp_report_opts one = {.data_load = &c->data_load[c->ropts.cp_ndata_load],
                                         .ndata_load = 1};
            if (!cp_report_data_load_compile(&one, &re, msg)) {
                usage_error(NULL, 0, msg);
                return EXIT_USAGE;
            }
            regfree(&re);
            c->ropts.cp_ndata_load++;
            c->ropts.cp_data_load = c->data_load;
            break;
        }
        case OPT_NOHEADER:
            c->no_header = true;
            break;
        case OPT_THREADS:
            if (!cliout_parse_count(optarg, 1, LOAD_MAX_THREADS, &v)) {
                fprintf(stderr, "torchtop report: --threads needs a number (1-64)\n");
                return EXIT_USAGE;
            }
            c->threads = (unsigned)v;
            break;
        case OPT_ARCH:
            c->ropts.arch = optarg;
            break;
        case OPT_INDUCTOR_CACHE:
            c->ropts.inductor_cache = optarg;
            break;
        case OPT_FLOWLINKS:
            c->flow_links = true;
            break;
        case OPT_NOCACHE:
            c->no_cache = true;
            break;
        case OPT_CAPTURE:
            if (c->ncaptures == ARRAY_SIZE(c->captures)) {
                usage_error(argv[optind - 1], ch, "is given more than 16 times");
                return EXIT_USAGE;
            }
            c->captures[c->ncaptures++] = optarg;
            break;
        case OPT_XLSX:
            c->xlsx_path = optarg;
            break;
        case OPT_SVG:
            c->svg_path = optarg;
            break;
        case OPT_METRIC:
            if (!folded_metric_parse(optarg, &c->metric)) {
                fprintf(stderr, "torchtop report: --metric is self_cpu or self_device\n");
                return EXIT_USAGE;
            }
            break;
        case OPT_PERSTEP:
            c->per_step = true;
            break;
        case CLISCOPE_STEP:
        case CLISCOPE_SKIP:
        case CLISCOPE_WINDOW:
        case CLISCOPE_MATCH:
        case CLISCOPE_ITERATION:
            if (!cliscope_option("report", ch, optarg, &c->scope))
                return EXIT_USAGE;
            break;
        case 'q':
            c->quiet = true;
            break;
        case 'h':
            report_usage(stdout);
            return EXIT_OK;
        case ':':
            usage_error(argv[optind - 1], optopt, "needs a value");
            return EXIT_USAGE;
        default:
            /* getopt_long says the same of "--t" (table? top? threads?). */
            usage_error(argv[optind - 1], optopt,
                        strncmp(argv[optind - 1], "--", 2) == 0 ? "is unknown or ambiguous"
                                                                : "is unknown");
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage_error(NULL, 0, "a TRACE argument expected");
        return EXIT_USAGE;
    }
    size_t dashes = 0;
    for (int i = optind; i < argc; i++)
        dashes += strcmp(argv[i], "-") == 0;
    if (dashes > 1) {
        usage_error(NULL, 0, "standard input is read once: give at most one trace as '-'");
        return EXIT_USAGE;
    }
    if (c->ropts.cp_nwhatif && !names_critical_path(c->tables)) {
        usage_error(NULL, 0, "--what-if goes with -t critical-path");
        return EXIT_USAGE;
    }
    if (c->ropts.cp_ndata_load && !names_critical_path(c->tables)) {
        usage_error(NULL, 0, "--cp-data-load goes with -t critical-path");
        return EXIT_USAGE;
    }
    *path = argv[optind];
    return -1;
}

/* An output (-o, --xlsx, --svg) that is the input file or a capture file is
 * refused before the input is read: one line naming both, exit 1. */
static int check_outputs(const struct report_cli *c, const char *in)
{
    const char *outs[] = {c->out_path, c->xlsx_path, c->svg_path};
    return cliout_check_outputs("report", outs, ARRAY_SIZE(outs), in, c->captures, c->ncaptures);
}

/* Sort every table that has the --sort column. A column that none of
 * them has is a usage error, reported with the columns they do have. */
static int sort_tables(const struct report_cli *c, struct table_list *tables)
{
    if (!c->sort)
        return EXIT_OK;
    bool any = false, keyavg = false;
    for (size_t i = 0; i < tables->items.n; i++) {
        any |= report_sort_table(tables->items.v[i], c->sort);
        keyavg |= strcmp(tables->items.v[i]->name, "key_averages") == 0 ||
                  strcmp(tables->items.v[i]->name, "events") == 0;
    }
    if (any)
        return EXIT_OK;
    struct strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "torchtop report: no column '");
    display_sanitize(&msg, c->sort, strlen(c->sort));
    sb_puts(&msg, "' to sort by in the tables asked for; their columns (names or titles):");
    size_t mark = msg.len;
    for (size_t i = 0; i < tables->items.n; i++) {
        const struct table *t = tables->items.v[i];
        for (size_t k = 0; k < t->ncols; k++) {
            /* Each name once: several tables share columns. */
            bool seen = false;
            for (size_t j = 0; j <= i && !seen; j++)
                for (size_t m = 0; m < (j < i ? tables->items.v[j]->ncols : k) && !seen; m++)
                    seen = strcmp(tables->items.v[j]->cols[m].name, t->cols[k].name) == 0;
            if (seen)
                continue;
            sb_puts(&msg, msg.len > mark ? ", '" : " '");
            display_sanitize(&msg, t->cols[k].name, strlen(t->cols[k].name));
            sb_putc(&msg, '\'');
        }
    }
    if (msg.len == mark)
        sb_puts(&msg, " none");
    if (keyavg)
        sb_puts(&msg, "; for key-averages and events also PyTorch's sort_by keys "
                      "(self_cpu_time_total, cpu_time_total, self_cuda_time_total, "
                      "cuda_time_total, cpu_time, cuda_time, cpu_memory_usage, "
                      "self_cpu_memory_usage, cuda_memory_usage, self_cuda_memory_usage, count, "
                      "flops)");
    fprintf(stderr, "%s\n", sb_str(&msg));
    sb_free(&msg);
    return EXIT_USAGE;
}

/* Print tables and the header in the chosen format. */
static int print_tables(const struct report_cli *c, struct table_list *tables,
                        const struct trace *t, const char *snapshot_path)
{
    int rc = sort_tables(c, tables);
    if (rc)
        return rc;
    struct strbuf out = STRBUF_INIT;
    struct strbuf header = STRBUF_INIT;
    if (c->fmt.format == FMT_JSON) {
        if (t) {
            report_header_json(&header, t);
        } else {
            sb_puts(&header, "{\"file\": ");
            sb_put_json_string(&header, snapshot_path, strlen(snapshot_path));
            sb_puts(&header, ", \"kind\": \"memory snapshot\"}");
        }
        tabfmt_list(&out, tables, &c->fmt, c->no_header ? NULL : sb_str(&header));
    } else {
        if (!c->no_header && c->fmt.format == FMT_TEXT && t) {
            report_header_text(&out, t);
            sb_putc(&out, '\n');
        } else if (!c->no_header && c->fmt.format == FMT_MD && t) {
            report_header_md(&out, t);
            sb_putc(&out, '\n');
        }
        tabfmt_list(&out, tables, &c->fmt, NULL);
    }
    rc = cliout_write("report", c->out_path, &out);
    sb_free(&out);
    sb_free(&header);
    return rc;
}

static void print_error(struct errinfo *err)
{
    char *m = errinfo_format(err);
    fprintf(stderr, "torchtop: %s\n", m);
    free(m);
}

/* Points per device of a snapshot workbook's memory chart: enough for the
 * shape of a long run, few enough for Excel to draw quickly. */
#define SNAPSHOT_CHART_POINTS 2000

/* A CUDA memory snapshot (pickle): its tables, summary/sites/segments by
 * default, trace entries on request; with --xlsx, a workbook of them with a
 * memory chart (memory_timeline). */
static int report_snapshot(const struct report_cli *c, struct source *src, struct errinfo *err)
{
    if (c->svg_path) {
        fprintf(stderr, "torchtop report: --svg is for traces, not memory snapshots\n");
        return EXIT_USAGE;
    }
    if (scope_any(&c->scope)) {
        fprintf(stderr, "torchtop report: --step, --skip-steps, --window and --match are for "
                        "traces, not memory snapshots\n");
        return EXIT_USAGE;
    }
    char *names = c->tables && strcmp(c->tables, "all") ? xstrdup(c->tables) : NULL;
    if (names) {
        char *copy = xstrdup(names), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            if (!snapshot_table_known(tok)) {
                fprintf(stderr, "torchtop: unknown table '%s' (tables: %s)\n", tok,
                        SNAPSHOT_TABLE_NAMES);
                free(copy);
                free(names);
                return EXIT_USAGE;
            }
        free(copy);
    }
    struct snapshot *s = NULL;
    struct snapshot_load_opts so = {0};
    if (snapshot_load_source(src, &so, &s, err) != ST_OK) {
        print_error(err);
        free(names);
        return EXIT_BAD_INPUT;
    }
    struct table_list tables = {0};
    /* 20 sites unless -n says otherwise; cut after --sort, not before. */
    if (!names) {
        snapshot_tables(s, NULL, 20, &tables);
    } else {
        char *save = NULL;
        for (char *tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            snapshot_tables(s, tok, 20, &tables);
    }
    int rc;
    if (c->xlsx_path) {
        struct errinfo xerr = {0};
        rc = sort_tables(c, &tables);
        /* The chart's table last, behind the tables a reader asked for, and
         * in entry order whatever --sort says (the chart draws its rows). */
        if (!rc)
            table_list_add(&tables, snaptimeline_table(s, SNAPSHOT_CHART_POINTS));
        if (!rc && xlsx_write(c->xlsx_path, NULL, &tables, NULL, &xerr) != ST_OK) {
            char *m = errinfo_format(&xerr);
            fprintf(stderr, "torchtop report: %s\n", m);
            free(m);
            rc = EXIT_FAILURE_RUN;
        }
        errinfo_clear(&xerr);
    } else {
        rc = print_tables(c, &tables, NULL, src->name);
    }
    table_list_free(&tables);
    snapshot_free(s);
    free(names);
    return rc;
}

/* Whether -t asks for folded stacks, which are lines for flame-graph
 * tools, not a table: alone, as text. Sets *usage to EXIT_USAGE (with a
 * message) when folded comes with anything it cannot. */
static bool wants_folded(const struct report_cli *c, int *usage)
{
    *usage = EXIT_OK;
    if (!c->tables)
        return false;
    char *copy = xstrdup(c->tables), *save = NULL;
    size_t n = 0;
    bool folded = false;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        n++;
        folded |= strcmp(tok, "folded") == 0;
    }
    free(copy);
    if (!folded)
        return false;
    if (n > 1)
        fprintf(stderr, "torchtop report: folded stacks are not a table; ask for them alone "
                        "(-t folded)\n");
    else if (c->fmt.format != FMT_TEXT)
        fprintf(stderr, "torchtop report: -t folded writes folded stack lines, not tables; "
                        "-f is for tables\n");
    else if (c->xlsx_path)
        fprintf(stderr, "torchtop report: -t folded writes folded stack lines, not tables; "
                        "--xlsx is for tables\n");
    else
        return true;
    *usage = EXIT_USAGE;
    return true;
}

/* Write an SVG document to path (atomically); exit status. */
static int save_svg(const char *path, const struct strbuf *svg)
{
    struct errinfo err = {0};
    int rc = EXIT_OK;
    if (svg_save(path, svg, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop report: %s\n", m);
        free(m);
        rc = EXIT_FAILURE_RUN;
    }
    errinfo_clear(&err);
    return rc;
}

/* The end of a trace's report: its output is complete, so the cache the
 * load put off (load_opts.cache_later) is written now, with standard
 * output released first so that a pipe's reader is not kept waiting; then
 * the trace is freed. Returns status. */
static int report_done(struct trace *t, struct tracecache_later *later, int status)
{
    if (later) {
        cliout_release_stdout();
        tracecache_later_write(later, t);
    }
    trace_free(t);
    return status;
}

/* A profiler trace: load (with progress), index, analyse, print. */
static int report_trace(const struct report_cli *c, struct source *src, struct errinfo *err)
{
    int usage;
    bool folded = wants_folded(c, &usage);
    if (usage)
        return usage;
    if (c->svg_path && !folded && (!c->tables || strcmp(c->tables, "roofline") != 0)) {
        fprintf(stderr, "torchtop report: --svg draws -t roofline or -t folded, alone\n");
        return EXIT_USAGE;
    }
    if (c->svg_path && c->xlsx_path) {
        fprintf(stderr, "torchtop report: --svg and --xlsx are two reports; ask for one\n");
        return EXIT_USAGE;
    }
    if (c->per_step && (folded || c->svg_path)) {
        fprintf(stderr, "torchtop report: --per-step gives tables, not folded stacks or SVG\n");
        return EXIT_USAGE;
    }
    struct trace *t = NULL;
    struct progress prog;
    progress_init(&prog, src->name, c->quiet);
    /* Indexed while loading (and so cached) unless captures are merged in
     * first. */
    struct load_opts lo = {.threads = c->threads,
                           .progress = progress_update,
                           .progress_ud = &prog,
                           .link_require_flow = c->flow_links,
                           .no_index = c->ncaptures > 0,
                           .use_cache = !c->no_cache};
    struct tracecache_later *later = NULL;
    lo.cache_later = &later;
    struct phase_timer pt;
    phase_timer_init(&pt);
    enum status st = trace_load_source(src, &lo, &t, err);
    lo.cache_later = NULL; /* for the loads below (captures, scopes) */
    /* The index that ran inside the load is timed as its own phase. */
    if (prog.phase == LOAD_PHASE_INDEX)
        phase_timer_mark_at(&pt, "load", prog.phase_start);
    else
        phase_timer_mark(&pt, "load");
    if (st == ST_OK && c->ncaptures) {
        struct trace **caps = NULL;
        size_t ncaps = 0;
        for (size_t k = 0; k < c->ncaptures && st == ST_OK; k++)
            st = capture_load(c->captures[k], &lo, &caps, &ncaps, err);
        if (st == ST_OK)
            capture_merge(t, caps, ncaps);
        for (size_t k = 0; k < ncaps; k++)
            trace_free(caps[k]);
        free(caps);
        phase_timer_mark(&pt, "captures");
        if (st != ST_OK) {
            progress_done(&prog);
            print_error(err);
            trace_free(t);
            return EXIT_BAD_INPUT;
        }
    }
    trace_index_steps(t, progress_index_step, &prog);
    phase_timer_mark(&pt, "index");
    progress_done(&prog);
    if (pt.enabled) {
        struct strbuf mem = STRBUF_INIT;
        trace_memory_describe(t, &mem);
        fprintf(stderr, "torchtop: memory %s\n", sb_str(&mem));
        sb_free(&mem);
    }
    int status = EXIT_OK;
    if (st != ST_OK) {
        print_error(err);
        status = EXIT_BAD_INPUT;
        char *kept = trace_load_kept(t);
        if (!kept) {
            trace_free(t);
            return status;
        }
        fprintf(stderr, "torchtop: reporting %s%s\n", kept,
                t->partial ? "" : "; the fault dropped none");
        free(kept);
    }
    if (scope_any(&c->scope)) {
        /* The scope replaces the trace the cache is made of. */
        tracecache_later_write(later, t);
        later = NULL;
    }
    int sc = cliscope_apply("report", &t, &c->scope, &lo);
    phase_timer_mark(&pt, "scope");
    if (sc) {
        trace_free(t);
        return status ? status : sc;
    }

    if (folded) {
        /* Folded stacks are lines for flame-graph tools, not a table. */
        struct strbuf out = STRBUF_INIT;
        folded_write(&out, t, c->metric);
        int w;
        if (c->svg_path) {
            struct strbuf svg = STRBUF_INIT, title = STRBUF_INIT;
            const char *base = strrchr(src->name, '/');
            sb_printf(&title, "Flame graph: %s time, %s",
                      c->metric == FOLDED_SELF_DEVICE ? "self device (GPU)" : "self CPU",
                      base ? base + 1 : src->name);
            svg_flame_render(&svg, sb_str(&out), out.len, sb_str(&title), "\xc2\xb5s");
            w = save_svg(c->svg_path, &svg);
            sb_free(&svg);
            sb_free(&title);
        } else {
            w = cliout_write("report", c->out_path, &out);
        }
        sb_free(&out);
        return report_done(t, later, status ? status : w);
    }
    struct analysis *a = analysis_new(t);
    /* The op table's values are in; a table that needs subtrees again
     * (roofline, findings) numbers them again, the others leave that
     * memory to the tables. */
    gputime_drop_numbering(a->gt);
    phase_timer_mark(&pt, "analysis");
    struct table_list tables = {0};
    char msg[256];
    /* A workbook gets the roofline sheets too unless tables were chosen. */
    const char *names = c->tables ? c->tables : c->xlsx_path ? "all,roofline" : "all";
    bool built = c->per_step ? perstep_build(t, names, &c->ropts, &lo, c->fmt.top, &tables, msg)
                             : report_build(a, names, &c->ropts, &tables, msg);
    phase_timer_mark(&pt, "tables");
    if (!built) {
        fprintf(stderr, "torchtop report: %s\n", msg);
        status = status ? status : EXIT_USAGE;
    } else if (c->svg_path) {
        struct device_peaks peaks;
        char pmsg[256];
        bool have = devices_resolve(t, c->ropts.arch, &peaks, pmsg, sizeof(pmsg));
        struct strbuf svg = STRBUF_INIT, title = STRBUF_INIT;
        const char *base = strrchr(src->name, '/');
        sb_printf(&title, "Roofline: %s", base ? base + 1 : src->name);
        svg_roofline_render(&svg, &tables, have ? &peaks : NULL, sb_str(&title));
        int w = save_svg(c->svg_path, &svg);
        status = status ? status : w;
        sb_free(&svg);
        sb_free(&title);
    } else if (c->xlsx_path) {
        struct errinfo xerr = {0};
        int s = sort_tables(c, &tables);
        if (s) {
            status = status ? status : s;
        } else if (xlsx_write(c->xlsx_path, a, &tables, &c->ropts, &xerr) != ST_OK) {
            char *m = errinfo_format(&xerr);
            fprintf(stderr, "torchtop report: %s\n", m);
            free(m);
            status = status ? status : EXIT_FAILURE_RUN;
        }
        errinfo_clear(&xerr);
    } else {
        int w = print_tables(c, &tables, t, NULL);
        if (w && !status)
            status = w;
    }
    phase_timer_mark(&pt, "output");
    table_list_free(&tables);
    analysis_free(a);
    return report_done(t, later, status);
}

int cmd_report(int argc, char **argv)
{
    struct report_cli c = {0};
    c.ropts.keyavg.time_scale = 1e3;
    c.ropts.keyavg.time_unit = "us";
    const char *path = NULL;
    int rc = parse_args(argc, argv, &c, &path);
    if (rc >= 0)
        return rc;
    /* Several traces, a directory, a glob or rank summaries: one job. */
    if (job_report_wanted(argv + optind, (size_t)(argc - optind))) {
        if (scope_any(&c.scope)) {
            fprintf(stderr, "torchtop report: --step, --skip-steps, --window and --match are for "
                            "one trace, not a job\n");
            return EXIT_USAGE;
        }
        if (c.svg_path || wants_folded(&c, &rc)) {
            fprintf(stderr, "torchtop report: --svg and -t folded are for one trace, not a job\n");
            return EXIT_USAGE;
        }
        struct job_report_opts jo = {c.tables, &c.fmt,    c.sort,       c.out_path,  c.no_header,
                                     c.quiet,  c.threads, c.flow_links, c.xlsx_path, &c.ropts};
        return job_report(argv + optind, (size_t)(argc - optind), &jo);
    }
    rc = check_outputs(&c, path);
    if (rc)
        return rc;
    struct errinfo err = {0};
    struct source src;
    if (source_open(&src, path, &err) != ST_OK) {
        print_error(&err);
        source_close(&src);
        errinfo_clear(&err);
        return EXIT_BAD_INPUT;
    }
    /* Traces and memory snapshots are told apart by content. */
    if (source_sniff(&src, &err) == INPUT_PICKLE)
        rc = report_snapshot(&c, &src, &err);
    else
        rc = report_trace(&c, &src, &err);
    source_close(&src);
    errinfo_clear(&err);
    return rc;
}
