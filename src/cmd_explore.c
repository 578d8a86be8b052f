/* torchtop [OPTIONS] [TRACE|SNAPSHOT]: open a trace, a CUDA memory snapshot
 * (told apart by content) or the demo in the explorer. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/outfile.h"
#include "core/roofline/devices.h"
#include "core/base/source.h"
#include "core/base/srcpath.h"
#include "core/trace/load.h"
#include "core/synth/synth.h"
#include "src/cmd_job.h"
#include "src/cliout.h"
#include "src/cliscope.h"
#include "src/commands.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"
#include "tui/frame/script_steps.h"
#include "tui/trace/tui.h"

void explore_options(FILE *f)
{
    fprintf(f, "      --no-color         monochrome (also when NO_COLOR is set)\n"
               "      --ascii            ASCII glyphs only (automatic outside UTF-8 locales)\n"
               "      --threads N        parser threads (default: one per core, at most 4)\n"
               "      --no-cache         neither read nor write the trace's cache (a trace of\n"
               "                         64 MiB or more opens again from ~/.cache/torchtop)\n"
               "      --arch NAME|FILE   roofline: device peaks (built-in name or TraceLens JSON)\n"
               "      --capture CAPTURE  graph capture trace or directory (repeatable): count\n"
               "                         graph-replayed kernels under the captured ops\n"
               "      --source-path DIR[:DIR...]  where frames' source files are looked for\n"
               "                         (default: $TORCHTOP_SOURCE_PATH, else the current\n"
               "                         directory and python3's site-packages)\n"
               "      --source-map OLD=NEW  read paths starting with OLD as starting with\n"
               "                         NEW (repeatable; the first that applies wins)\n"
               "      --script FILE      run the steps in FILE headless (see torchtop(1))\n"
               "      --script-timing F  script mode: write each step's time to F\n"
               "      --size WxH         script mode: screen size (default 100x30)\n"
               "      --keys             print the key bindings (the help screen) and exit\n"
               "  -h, --help             this help\n");
}

static void explore_usage(FILE *f)
{
    fprintf(
        f,
        "usage: torchtop [OPTIONS] [TRACE|SNAPSHOT]\n"
        "       torchtop [OPTIONS] TRACE... | DIR | 'GLOB'   (the job view of a multi-rank job)\n\n"
        "Explore a PyTorch profiler trace (.json or .json.gz; - for stdin) in the\n"
        "terminal: where the GPU time went, by op, call path and stream. With no\n"
        "TRACE, open a bundled demo (a synthetic training run). A CUDA memory\n"
        "snapshot (.pickle or .pickle.gz) opens in the memory views: memory over\n"
        "time, live allocations, allocation sites, segments and tracebacks.\n\n"
        "Options:\n");
    explore_options(f);
    fprintf(f, "\n");
    cliscope_usage(f);
    fprintf(f, "\nPress ? in the explorer for the keys.\n");
}

enum {
    OPT_NOCOLOR = 256,
    OPT_ASCII,
    OPT_THREADS,
    OPT_SCRIPT,
    OPT_TIMING,
    OPT_SIZE,
    OPT_KEYS,
    OPT_ARCH,
    OPT_CAPTURE,
    OPT_SOURCE_PATH,
    OPT_SOURCE_MAP,
    OPT_NOCACHE
};

/* Whether --arch can be used, before the trace is read: an arch file that
 * reads (an existing path or a name ending in .json), else a built-in
 * entry; as devices_resolve() takes it. */
static bool arch_usable(const char *arch)
{
    struct device_peaks dp;
    char err[256];
    struct stat sb;
    size_t n = strlen(arch);
    if (stat(arch, &sb) == 0 || (n > 5 && strcmp(arch + n - 5, ".json") == 0)) {
        if (devices_load_arch_file(arch, &dp, err))
            return true;
        fprintf(stderr, "torchtop: --arch %s: %s\n", arch, err);
        return false;
    }
    if (devices_builtin(arch, &dp))
        return true;
    struct strbuf names = STRBUF_INIT;
    devices_builtin_names(&names);
    fprintf(stderr,
            "torchtop: --arch %s: no such device (built-in: %s; or a TraceLens arch JSON file)\n",
            arch, sb_str(&names));
    sb_free(&names);
    return false;
}

/* The explorer with the source search path sp (tui_opts.srcpath). */
static int explore(int argc, char **argv, struct srcpath *sp)
{
    static const struct option longopts[] = {
        {"no-color", no_argument, NULL, OPT_NOCOLOR},
        {"no-colour", no_argument, NULL, OPT_NOCOLOR},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"no-cache", no_argument, NULL, OPT_NOCACHE},
        {"script", required_argument, NULL, OPT_SCRIPT},
        {"script-timing", required_argument, NULL, OPT_TIMING},
        {"size", required_argument, NULL, OPT_SIZE},
        {"keys", no_argument, NULL, OPT_KEYS},
        {"arch", required_argument, NULL, OPT_ARCH},
        {"capture", required_argument, NULL, OPT_CAPTURE},
        {"source-path", required_argument, NULL, OPT_SOURCE_PATH},
        {"source-map", required_argument, NULL, OPT_SOURCE_MAP},
        {"help", no_argument, NULL, 'h'},
        CLISCOPE_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    struct tui_opts o = {.srcpath = sp};
    struct scope scope;
    scope_init(&scope);
    const char *captures[16];
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_NOCOLOR:
            o.no_color = true;
            break;
        case OPT_ASCII:
            o.ascii = true;
            break;
        case OPT_NOCACHE:
            o.no_cache = true;
            break;
        case OPT_THREADS: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 1 || v > LOAD_MAX_THREADS) {
                fprintf(stderr, "torchtop: --threads needs a number (1-64)\n");
                return EXIT_USAGE;
            }
            o.threads = (unsigned)v;
            break;
        }
        case OPT_SCRIPT:
            o.script = optarg;
            break;
        case OPT_ARCH:
            if (!arch_usable(optarg))
                return EXIT_USAGE;
            o.arch = optarg;
            break;
        case OPT_TIMING:
            o.script_timing = optarg;
            break;
        case OPT_CAPTURE:
            if (o.ncaptures == ARRAY_SIZE(captures)) {
                fprintf(stderr, "torchtop: --capture is given more than 16 times\n");
                return EXIT_USAGE;
            }
            captures[o.ncaptures++] = optarg;
            o.captures = captures;
            break;
        case OPT_SOURCE_PATH:
            srcpath_set_dirs(sp, optarg);
            break;
        case OPT_SOURCE_MAP: {
            char why[96];
            if (!srcpath_add_map(sp, optarg, why, sizeof(why))) {
                fprintf(stderr, "torchtop: --source-map %s: %s\n", optarg, why);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_SIZE:
            if (!script_parse_size(optarg, &o.script_cols, &o.script_lines)) {
                fprintf(stderr, "torchtop: --size needs WIDTHxHEIGHT\n");
                return EXIT_USAGE;
            }
            break;
        case OPT_KEYS: {
            struct strbuf sb = STRBUF_INIT;
            help_text(&sb, PANE__COUNT);
            fputs(sb_str(&sb), stdout);
            sb_free(&sb);
            return EXIT_OK;
        }
        case 'h':
            explore_usage(stdout);
            return EXIT_OK;
        default:
            if (cliscope_is_option(ch)) {
                if (!cliscope_option("explorer", ch, optarg, &scope))
                    return EXIT_USAGE;
                break;
            }
            explore_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (scope_any(&scope))
        o.scope = &scope;
    size_t dashes = 0;
    for (int i = optind; i < argc; i++)
        dashes += strcmp(argv[i], "-") == 0;
    if (dashes > 1) {
        fprintf(stderr, "torchtop: standard input is read once: give at most one trace as '-'\n");
        return EXIT_USAGE;
    }
    /* Several traces, a directory, a glob or summaries: the job view. */
    bool job = job_report_wanted(argv + optind, (size_t)(argc - optind));
    if (o.scope && (job || optind == argc)) {
        fprintf(stderr, "torchtop: a scope (--step, --window, ...) applies to one trace\n");
        return EXIT_USAGE;
    }
    if (job)
        return job_explore(argv + optind, (size_t)(argc - optind), &o);
    if (o.script_timing && !o.script) {
        fprintf(stderr, "torchtop: --script-timing needs --script\n");
        return EXIT_USAGE;
    }
    if (optind == argc) {
        /* No trace: the bundled demo, generated in memory. */
        size_t len = 0;
        char *demo = synth_to_memory(&(struct synth_opts){.seed = 1}, &len, NULL);
        o.mem = demo;
        o.mem_len = len;
        o.name = "demo (synthetic training steps)";
        int rc = tui_main(&o);
        free(demo);
        return rc;
    }
    o.path = argv[optind];
    struct errinfo err = {0};
    const char *outs[] = {o.script_timing};
    if (cliout_check_outputs(NULL, outs, 1, o.path, o.captures, o.ncaptures))
        return EXIT_FAILURE_RUN;
    /* Traces and memory snapshots are told apart by content, not by name. */
    struct source src;
    if (source_open(&src, o.path, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        source_close(&src);
        errinfo_clear(&err);
        return EXIT_BAD_INPUT;
    }
    o.snapshot = source_sniff(&src, &err) == INPUT_PICKLE;
    if (o.snapshot && o.scope) {
        fprintf(stderr, "torchtop: a scope (--step, --window, ...) applies to a trace, not to a "
                        "memory snapshot\n");
        source_close(&src);
        errinfo_clear(&err);
        return EXIT_USAGE;
    }
    o.src = &src;
    int rc = tui_main(&o);
    source_close(&src);
    errinfo_clear(&err);
    return rc;
}

int cmd_explore(int argc, char **argv)
{
    struct srcpath sp;
    srcpath_init(&sp);
    const char *env = getenv("TORCHTOP_SOURCE_PATH");
    if (env && *env)
        srcpath_set_dirs(&sp, env);
    int rc = explore(argc, argv, &sp);
    srcpath_done(&sp);
    return rc;
}
