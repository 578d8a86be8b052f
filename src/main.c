/* torchtop: dispatch to the subcommand, or open the explorer. */
#include "config.h"

#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/outfile.h"
#include "src/commands.h"

static const struct command commands[] = {
    {"report", cmd_report, "print the analyses of a trace as tables (text, csv, json, md)"},
    {"diff", cmd_diff, "compare two traces: per-name counts and durations, and what changed"},
    {"export", cmd_export,
     "write a slice of a trace (a step, a window, matching ops) as Kineto JSON"},
    {"summarize", cmd_summarize,
     "write a rank summary of one trace (the map step of a multi-rank report)"},
    {"gen", cmd_gen, "write a synthetic Kineto trace (demo data, benchmarks)"},
    {"symbolize", cmd_symbolize, "addresses to function, file and line (addr2line's format)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: torchtop [OPTIONS] [TRACE]\n"
               "       torchtop COMMAND [OPTIONS] ARGS\n\n"
               "With no command, open TRACE (a Kineto .json or .json.gz trace) in the\n"
               "explorer; with no TRACE, open the bundled demo trace.\n\n"
               "Commands:\n");
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nExplorer options (torchtop [OPTIONS] [TRACE]):\n");
    explore_options(f);
    fprintf(f, "\nRun 'torchtop COMMAND --help' for a command's options; see torchtop(1).\n");
}

/* Ctrl-C or a kill while a command writes a file: its temporary file goes,
 * the file it was to replace stays as it was, and the signal then ends the
 * process as it would have. */
static void on_fatal_signal(int sig)
{
    outfile_unlink_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_fatal_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        /* A signal ignored on entry (nohup, a shell's background job) stays
         * ignored. */
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
    /* A file size limit makes the write fail (EFBIG), which is reported,
     * rather than killing the process. */
    signal(SIGXFSZ, SIG_IGN);
}

/* Arrays of a megabyte or more are mapped on their own and unmapped when
 * freed. glibc otherwise raises its threshold to the size of each mapped
 * block freed (up to 32 MiB), after which the index and the tables' arrays
 * per event come from the heap, where a freed one is not given back and
 * the next is faulted in afresh: more memory at the peak and twice the
 * time on a small trace. MALLOC_MMAP_THRESHOLD_ in the environment wins. */
static void set_malloc_policy(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    if (!getenv("MALLOC_MMAP_THRESHOLD_"))
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

int main(int argc, char **argv)
{
    set_malloc_policy();
    setlocale(LC_CTYPE, "");
    catch_fatal_signals();
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            usage(stdout);
            return EXIT_OK;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
            printf("torchtop %s\n", PACKAGE_VERSION);
            return EXIT_OK;
        }
        for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].run(argc - 1, argv + 1);
    }
    /* No command: the explorer, on TRACE or on the bundled demo. */
    return cmd_explore(argc, argv);
}
