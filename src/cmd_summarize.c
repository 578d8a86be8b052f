/* torchtop summarize: one rank's trace to a rank summary file, the map
 * step of a multi-rank report (core/job/ranksum.h). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/job/job_inputs.h"
#include "core/job/ranksum.h"
#include "core/trace/load.h"
#include "src/cliscope.h"
#include "src/commands.h"

static void summarize_usage(FILE *f)
{
    fprintf(f, "usage: torchtop summarize [--threads N] [--flow-links] [SCOPE] TRACE -o FILE\n\n"
               "Write the rank summary of one rank's trace: the GPU timeline, profiler steps,\n"
               "every collective kernel with its metadata and GPU time by op, as gzip JSON (a\n"
               "few hundred KB; the schema is in torchtop(1), SUMMARY FILES). 'torchtop report'\n"
               "reads summaries wherever it reads the traces of a job and gives the same\n"
               "cross-rank tables. Run it where the traces are, e.g.\n"
               "  parallel torchtop summarize {} -o {.}.summary ::: traces/*.json.gz\n\n"
               "  -o, --output FILE  the summary file (required)\n"
               "      --threads N    parser threads (default: one per core, at most 4)\n"
               "      --flow-links   link GPU work to a launch only through an ac2g flow\n"
               "  -h, --help         this help\n\n");
    cliscope_usage(f);
    fprintf(f, "\nExit status: 0 on success, 1 when the output cannot be written, 2 when the\n"
               "trace is malformed or truncated (nothing is written), 64 on usage errors (also\n"
               "a scope the trace does not have).\n");
}

int cmd_summarize(int argc, char **argv)
{
    enum { OPT_THREADS = 256, OPT_FLOW };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"flow-links", no_argument, NULL, OPT_FLOW},
        {"help", no_argument, NULL, 'h'},
        CLISCOPE_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    struct scope scope;
    scope_init(&scope);
    struct load_opts lo = {0};
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'o':
            out = optarg;
            break;
        case OPT_THREADS: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 1 || v > LOAD_MAX_THREADS) {
                fprintf(stderr, "torchtop summarize: --threads needs a number (1-64)\n");
                return EXIT_USAGE;
            }
            lo.threads = (unsigned)v;
            break;
        }
        case OPT_FLOW:
            lo.link_require_flow = true;
            break;
        case CLISCOPE_STEP:
        case CLISCOPE_SKIP:
        case CLISCOPE_WINDOW:
        case CLISCOPE_MATCH:
        case CLISCOPE_ITERATION:
            if (!cliscope_option("summarize", ch, optarg, &scope))
                return EXIT_USAGE;
            break;
        case 'h':
            summarize_usage(stdout);
            return EXIT_OK;
        default:
            fprintf(stderr, "torchtop summarize: bad option; try 'torchtop summarize --help'\n");
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1 || !out) {
        fprintf(stderr, "torchtop summarize: one TRACE and -o FILE expected; try 'torchtop "
                        "summarize --help'\n");
        return EXIT_USAGE;
    }
    const char *path = argv[optind];
    struct errinfo err = {0};
    int rc = EXIT_OK;
    struct trace *t = NULL;
    if (outfile_check_distinct(out, path, &err) != ST_OK) {
        rc = EXIT_FAILURE_RUN;
    } else if (trace_load_file(path, &lo, &t, &err) != ST_OK) {
        rc = EXIT_BAD_INPUT;
    } else if ((rc = cliscope_apply("summarize", &t, &scope, &lo)) != EXIT_OK) {
        trace_free(t);
        return rc; /* told */
    } else {
        struct ranksum *s = ranksum_from_trace(t);
        enum status st = ranksum_write(s, out, &err);
        /* A summary past the limit is the input's fault (LIMITS), exit 2. */
        if (st != ST_OK)
            rc = st == ST_LIMIT ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
        ranksum_free(s);
    }
    if (rc) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop summarize: %s\n", m);
        free(m);
    }
    trace_free(t);
    errinfo_clear(&err);
    return rc;
}
