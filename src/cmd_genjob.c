/* torchtop gen --ranks N: a synthetic multi-rank job (core/synth/synth_job.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/synth/synth_job.h"
#include "src/commands.h"

/* `--inject straggler` without an amount: µs per step. */
#define GENJOB_INJECT_DEFAULT_US 1200

static void genjob_usage(FILE *f)
{
    fprintf(f,
            "usage: torchtop gen --ranks N -o DIR [--steps N] [--collectives N]\n"
            "                    [--straggler R] [--straggler-us US] [--inject straggler[:US]]\n"
            "                    [--no-metadata] [--gzip]\n\n"
            "Write the traces of one synthetic data-parallel job, DIR/rank-K.json, one per rank:\n"
            "per step, compute kernels and collectives (all-reduce, all-gather, reduce-scatter,\n"
            "all-to-all, then a broadcast) on a communication stream with NCCL's metadata, a\n"
            "skew in arrival per rank and collective, and one straggler that arrives late.\n"
            "The same options always give the same bytes.\n\n"
            "  --ranks N         ranks (1-%d)\n"
            "  -o, --output DIR  directory for the traces (created if missing)\n"
            "  --steps N         profiler steps (default 2)\n"
            "  --collectives N   implicit-sync collectives per step (default 4)\n"
            "  --straggler R     the slow rank (default N/2)\n"
            "  --straggler-us US its extra delay in microseconds (default 300)\n"
            "  --inject straggler[:US]  the straggler arrives after the last of the others,\n"
            "                    so that they wait US µs a step for it in all (split evenly\n"
            "                    over the step's collectives; default 1200), what\n"
            "                    'report -t findings DIR' finds as the straggler\n"
            "  --no-metadata     plain NCCL kernels without collective metadata (and no\n"
            "                    broadcast): collectives are then matched by order\n"
            "  --gzip            write rank-K.json.gz\n",
            SYNTH_JOB_MAX_RANKS);
}

static bool num(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return *s && !*end && !errno && *v >= lo && *v <= hi;
}

int cmd_gen_job(int argc, char **argv)
{
    enum { O_RANKS = 256, O_STEPS, O_COLLS, O_STRAG, O_STRAGUS, O_NOMETA, O_GZIP, O_INJECT };
    static const struct option longopts[] = {
        {"ranks", required_argument, NULL, O_RANKS},
        {"output", required_argument, NULL, 'o'},
        {"steps", required_argument, NULL, O_STEPS},
        {"collectives", required_argument, NULL, O_COLLS},
        {"straggler", required_argument, NULL, O_STRAG},
        {"straggler-us", required_argument, NULL, O_STRAGUS},
        {"no-metadata", no_argument, NULL, O_NOMETA},
        {"gzip", no_argument, NULL, O_GZIP},
        {"inject", required_argument, NULL, O_INJECT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct synth_job_opts o = {.straggler = -1, .metadata = true};
    const char *dir = NULL;
    long v, inject_us = 0;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (ch) {
        case O_RANKS:
            if (!num(optarg, 1, SYNTH_JOB_MAX_RANKS, &v))
                goto bad;
            o.ranks = (unsigned)v;
            break;
        case 'o':
            dir = optarg;
            break;
        case O_STEPS:
            if (!num(optarg, 1, 1000, &v))
                goto bad;
            o.steps = (unsigned)v;
            break;
        case O_COLLS:
            if (!num(optarg, 1, 1000, &v))
                goto bad;
            o.colls = (unsigned)v;
            break;
        case O_STRAG:
            if (!num(optarg, 0, SYNTH_JOB_MAX_RANKS - 1, &v))
                goto bad;
            o.straggler = (int)v;
            break;
        case O_STRAGUS:
            if (!num(optarg, 1, 1000000, &v))
                goto bad;
            o.straggler_us = (unsigned)v;
            break;
        case O_NOMETA:
            o.metadata = false;
            break;
        case O_GZIP:
            o.gzip = true;
            break;
        case O_INJECT:
            /* straggler[:US]: US µs of waiting for the straggler per step */
            if (strncmp(optarg, "straggler", 9) != 0 || (optarg[9] && optarg[9] != ':'))
                goto bad;
            inject_us = GENJOB_INJECT_DEFAULT_US;
            if (optarg[9] && !num(optarg + 10, 1, 10000000, &inject_us))
                goto bad;
            break;
        case 'h':
            genjob_usage(stdout);
            return EXIT_OK;
        default:
            goto bad;
        }
    }
    if (optind != argc || !o.ranks || !dir ||
        (o.straggler >= 0 && (unsigned)o.straggler >= o.ranks))
        goto bad;
    if (inject_us) {
        unsigned colls = o.colls ? o.colls : 4, per = (unsigned)(inject_us / colls);
        if (!per || o.straggler_us)
            goto bad; /* at least 1 µs a collective; --straggler-us is the other way */
        o.straggler_us = per;
        o.straggler_after_last = true;
    }
    struct errinfo err = {0};
    if (synth_job_write(&o, dir, &err) != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop gen: %s\n", m);
        free(m);
        errinfo_clear(&err);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
bad:
    fprintf(stderr, "torchtop gen: --ranks N -o DIR expected, with numbers in range (a straggler "
                    "below N); try 'torchtop gen --ranks 1 --help'\n");
    return EXIT_USAGE;
}
