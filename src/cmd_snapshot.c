/* torchtop snapshot-report: print a CUDA memory snapshot's tables (until
 * `torchtop report` reads snapshots itself). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapreport.h"
#include "core/snapshot.h"
#include "core/tabfmt.h"
#include "src/commands.h"

static void snapshot_usage(FILE *f)
{
    fprintf(f, "usage: torchtop snapshot-report [OPTIONS] SNAPSHOT\n\n"
               "Print the tables of a CUDA memory snapshot (.pickle or .pickle.gz; - for stdin).\n\n"
               "Options:\n"
               "  -t, --table NAME    one of %s (default: all but trace)\n"
               "  -f, --format FMT    text (default), csv, json or md\n"
               "  -n, --top N         allocation sites to list (default 20, 0 = all)\n"
               "      --all-columns   text/md output: include the detail columns\n"
               "  -h, --help          this help\n\n"
               "Exit status: 0 on success, 2 when the input is malformed, truncated or refused,\n"
               "64 on usage errors.\n",
               SNAPSHOT_TABLE_NAMES);
}

int cmd_snapshot_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"table", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"top", required_argument, NULL, 'n'},
        {"all-columns", no_argument, NULL, 'A'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *table = NULL;
    size_t top = 20;
    struct tabfmt_opts fmt = {.format = FMT_TEXT};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:f:n:h", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (!snapshot_table_known(optarg)) {
                fprintf(stderr, "torchtop: unknown table '%s' (tables: %s)\n", optarg,
                        SNAPSHOT_TABLE_NAMES);
                return EXIT_USAGE;
            }
            table = optarg;
            break;
        case 'f':
            if (!tab_format_parse(optarg, &fmt.format)) {
                fprintf(stderr, "torchtop: unknown format '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'n': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 0) {
                fprintf(stderr, "torchtop: --top needs a count\n");
                return EXIT_USAGE;
            }
            top = (size_t)v;
            break;
        }
        case 'A':
            fmt.all_columns = true;
            break;
        case 'h':
            snapshot_usage(stdout);
            return EXIT_OK;
        default:
            snapshot_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (optind + 1 != argc) {
        snapshot_usage(stderr);
        return EXIT_USAGE;
    }
    struct errinfo err = {0};
    struct snapshot *s = NULL;
    if (snapshot_load_file(argv[optind], NULL, &s, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        errinfo_clear(&err);
        return EXIT_BAD_INPUT;
    }
    struct table_list tl = {0};
    snapshot_tables(s, table, top, &tl);
    struct strbuf out = STRBUF_INIT;
    tabfmt_list(&out, &tl, &fmt, NULL);
    fwrite(sb_str(&out), 1, out.len, stdout);
    sb_free(&out);
    table_list_free(&tl);
    snapshot_free(s);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILURE_RUN;
}
