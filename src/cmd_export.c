/* torchtop export: write a slice of a trace as a Kineto JSON trace. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/outfile.h"
#include "core/trace/capture.h"
#include "core/trace/export.h"
#include "core/trace/load.h"
#include "core/trace/tracecache.h"
#include "core/trace/tree.h"
#include "src/cliout.h"
#include "src/cliscope.h"
#include "src/commands.h"

static void export_usage(FILE *f)
{
    fprintf(f, "usage: torchtop export --chrome OUT.json[.gz] [SCOPE] [--capture CAPTURE] TRACE\n\n"
               "Write a slice of TRACE as a Kineto (Chrome trace) JSON file that Perfetto and\n"
               "chrome://tracing open; .gz output names are gzip-compressed.\n\n"
               "  --chrome FILE      the output file (- for standard output)\n"
               "  --capture CAPTURE  graph capture trace or directory (repeatable): the captured\n"
               "                     ops are written in, each replayed kernel correlated and\n"
               "                     flow-linked to its captured launch\n"
               "  --no-cache         neither read nor write the trace's cache\n"
               "  -q, --quiet        no summary line on standard error\n"
               "  -h, --help         this help\n\n");
    cliscope_usage(f);
    fprintf(f, "\nA window or step keeps whole host spans overlapping it and the GPU work they\n"
               "launched. Instants such as [memory] go with the innermost span around them.\n"
               "Metadata, top-level keys and the flows between kept events are kept.\n");
}

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"chrome", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"capture", required_argument, NULL, 'C'},
        {"no-cache", no_argument, NULL, 'N'},
        CLISCOPE_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    struct scope scope;
    scope_init(&scope);
    bool quiet = false, no_cache = false;
    int ch;
    const char *captures[16]; /* --capture, in order */
    size_t ncaptures = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'c':
            out = optarg;
            break;
        case CLISCOPE_STEP:
        case CLISCOPE_SKIP:
        case CLISCOPE_WINDOW:
        case CLISCOPE_MATCH:
        case CLISCOPE_ITERATION:
            if (!cliscope_option("export", ch, optarg, &scope))
                return EXIT_USAGE;
            break;
        case 'q':
            quiet = true;
            break;
        case 'N':
            no_cache = true;
            break;
        case 'C':
            if (ncaptures == sizeof(captures) / sizeof(captures[0])) {
                fprintf(stderr, "torchtop export: at most 16 --capture options\n");
                return EXIT_USAGE;
            }
            captures[ncaptures++] = optarg;
            break;
        case 'h':
            export_usage(stdout);
            return EXIT_OK;
        default:
            export_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!out || optind != argc - 1) {
        fprintf(stderr, "torchtop export: expected --chrome OUT and TRACE\n");
        export_usage(stderr);
        return EXIT_USAGE;
    }
    struct errinfo err = {0};
    const char *outs[] = {out};
    if (cliout_check_outputs("export", outs, 1, argv[optind], captures, ncaptures))
        return EXIT_FAILURE_RUN;
    struct trace *t = NULL;
    /* With captures, the merge comes before the index (capture.h). */
    struct load_opts lo = {.no_index = ncaptures > 0, .use_cache = !no_cache};
    /* The cache is written once the export is (tracecache.h). */
    struct tracecache_later *later = NULL;
    lo.cache_later = &later;
    enum status st = trace_load_file(argv[optind], &lo, &t, &err);
    lo.cache_later = NULL;
    if (st == ST_OK && ncaptures) {
        struct trace **caps = NULL;
        size_t ncaps = 0;
        for (size_t k = 0; k < ncaptures && st == ST_OK; k++) {
            st = capture_load(captures[k], &lo, &caps, &ncaps, &err);
        }
        if (st == ST_OK)
            capture_merge(t, caps, ncaps);
        for (size_t k = 0; k < ncaps; k++)
            trace_free(caps[k]);
        free(caps);
        if (st != ST_OK) {
            char *m = errinfo_format(&err);
            fprintf(stderr, "torchtop: %s\n", m);
            free(m);
            trace_free(t);
            errinfo_clear(&err);
            return EXIT_BAD_INPUT;
        }
    }
    if (t)
        trace_index(t); /* kept events of a replay that failed part-way too */
    int status = EXIT_OK;
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        status = EXIT_BAD_INPUT;
    }
    uint8_t *keep = xmalloc(t->ev.n + 1);
    char msg[256];
    bool none = !t->ev.n && !t->others.n;
    if (none || !cliscope_select(t, &scope, keep, msg)) {
        fprintf(stderr, "torchtop export: %s\n", none ? "no events to export" : msg);
        status = status ? status : EXIT_FAILURE_RUN;
    } else {
        bool gz = strlen(out) > 3 && strcmp(out + strlen(out) - 3, ".gz") == 0;
        uint64_t ne = 0, nf = 0;
        struct errinfo werr = {0};
        if (export_chrome(t, keep, out, gz, &ne, &nf, &werr) != ST_OK) {
            char *m = errinfo_format(&werr);
            fprintf(stderr, "torchtop: %s\n", m);
            free(m);
            status = status ? status : EXIT_FAILURE_RUN;
        } else if (!quiet) {
            fprintf(stderr, "torchtop export: wrote %llu event%s and %llu flow point%s to %s\n",
                    (unsigned long long)ne, ne == 1 ? "" : "s", (unsigned long long)nf,
                    nf == 1 ? "" : "s", out);
        }
        errinfo_clear(&werr);
    }
    free(keep);
    tracecache_later_write(later, t);
    trace_free(t);
    errinfo_clear(&err);
    return status;
}
