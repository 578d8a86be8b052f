/* torchtop gen: write a synthetic Kineto trace (core/synth/synth.h). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/synth/synth.h"
#include "src/commands.h"

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: torchtop gen [--events N | --size BYTES] [--steps N] [--layers N]\n"
            "                    [--seed S] [--conv] [--moe] [--inject KIND[:US]]... [--gzip]\n"
            "                    [-o FILE] [--stats]\n"
            "       torchtop gen --ranks N -o DIR ...   (a multi-rank job: --ranks 1 --help)\n\n"
            "Write a synthetic PyTorch profiler (Kineto) trace: a bf16 transformer trained\n"
            "with DDP on an H100, with Python frames, aten ops with shapes, kernels on two\n"
            "streams, NCCL all-reduces, a CUDA-graph replay and [memory] events. The same\n"
            "options always give the same bytes.\n\n"
            "  --events N      about N trace events\n"
            "  --size BYTES    about BYTES of JSON text (uncompressed); suffixes k, M, G\n"
            "  --steps N       profiler steps (default: from the size, else %d)\n"
            "  --layers N      transformer blocks (default: from the size, else %d)\n"
            "  --seed S        seed for shapes, timings and ids (default 1)\n"
            "  --conv          add a conv2d + batch_norm stem to the model\n"
            "  --moe           after each forward pass, the ops of MoE serving and training\n"
            "                  stacks: aiter fused and two-stage MoE, SGLang's Triton and vLLM's\n"
            "                  GPTQ/AWQ fused MoE, Primus-Turbo grouped GEMMs, MoE\n"
            "                  dispatch/combine and a fused cross-entropy loss\n"
            "  --inject KIND[:US]  write a problem of a known size into every step, what\n"
            "                  'report -t findings' should find (repeatable): sync (a\n"
            "                  .item() then US µs of host work, default 2000), small-kernels\n"
            "                  (tiny kernels whose launches take US µs in all, 1000), cpu-bound\n"
            "                  (a US µs host op, 3000), pageable-copy (a US µs pageable\n"
            "                  host-to-device copy, 2000), data-loading (a US µs\n"
            "                  DataLoader wait, 5000), misaligned-gemm (a GEMM with dims not\n"
            "                  a multiple of 8, US µs slower than its shape allows, 2000),\n"
            "                  recompute (a checkpointed GELU recomputed in the backward\n"
            "                  pass, its kernel US µs, 1500)\n"
            "  --gzip          compress (also implied by an output name ending in .gz)\n"
            "  --level N       gzip level 1-9 (default 1)\n"
            "  -o FILE         output file; '-' or none: standard output\n"
            "  --stats         print what was written to standard error\n"
            "  -h, --help      this text\n",
            SYNTH_DEMO_STEPS, SYNTH_DEMO_LAYERS);
}

static bool parse_count(const char *s, uint64_t *out, uint64_t max)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || s[0] == '-' || v > max)
        return false;
    *out = v;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void print_stats(const struct synth_stats *st, const char *path, double secs)
{
    fprintf(stderr,
            "torchtop gen: %s: %u step%s x %u layer%s, %llu events, %llu bytes of JSON, %llu "
            "written, %.2f s (%.0f MB/s)\n",
            path, st->steps, st->steps == 1 ? "" : "s", st->layers, st->layers == 1 ? "" : "s",
            (unsigned long long)st->events, (unsigned long long)st->json_bytes,
            (unsigned long long)st->out_bytes, secs,
            secs > 0 ? (double)st->json_bytes / 1e6 / secs : 0.0);
    fprintf(stderr,
            "  GPU events %llu: kernels %llu (graph %llu, nccl %llu, mangled names %llu), memcpy "
            "%llu, memset %llu; linked %llu, unlinked %llu\n"
            "  cpu_op %llu, python %llu, runtime %llu, driver %llu, fwd/bwd pairs %llu, [memory] "
            "%llu\n",
            (unsigned long long)(st->kernels + st->memcpys + st->memsets),
            (unsigned long long)st->kernels, (unsigned long long)st->graph_kernels,
            (unsigned long long)st->comm_kernels, (unsigned long long)st->mangled_kernels,
            (unsigned long long)st->memcpys, (unsigned long long)st->memsets,
            (unsigned long long)st->linked, (unsigned long long)st->unlinked,
            (unsigned long long)st->by_kind[EVK_CPU_OP], (unsigned long long)st->python_frames,
            (unsigned long long)st->runtime_calls, (unsigned long long)st->driver_launches,
            (unsigned long long)st->bwd_ops, (unsigned long long)st->memory_events);
}

int cmd_gen(int argc, char **argv)
{
    /* A multi-rank job is another generator with its own options. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--ranks") == 0 || strncmp(argv[i], "--ranks=", 8) == 0)
            return cmd_gen_job(argc, argv);
    enum {
        OPT_EVENTS = 256,
        OPT_SIZE,
        OPT_STEPS,
        OPT_LAYERS,
        OPT_SEED,
        OPT_CONV,
        OPT_GZIP,
        OPT_LEVEL,
        OPT_STATS,
        OPT_INJECT,
        OPT_MOE
    };
    static const struct option longopts[] = {
        {"events", required_argument, NULL, OPT_EVENTS},
        {"size", required_argument, NULL, OPT_SIZE},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"layers", required_argument, NULL, OPT_LAYERS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"conv", no_argument, NULL, OPT_CONV},
        {"moe", no_argument, NULL, OPT_MOE},
        {"gzip", no_argument, NULL, OPT_GZIP},
        {"level", required_argument, NULL, OPT_LEVEL},
        {"output", required_argument, NULL, 'o'},
        {"stats", no_argument, NULL, OPT_STATS},
        {"inject", required_argument, NULL, OPT_INJECT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct synth_opts opts = {.seed = 1};
    const char *out = "-";
    bool stats = false;
    uint64_t v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_EVENTS:
            if (!parse_count(optarg, &opts.target_events, UINT64_MAX) || !opts.target_events)
                goto bad_value;
            break;
        case OPT_SIZE:
            if (!synth_parse_size(optarg, &opts.target_bytes))
                goto bad_value;
            break;
        case OPT_STEPS:
            if (!parse_count(optarg, &v, 100000000) || !v)
                goto bad_value;
            opts.steps = (unsigned)v;
            break;
        case OPT_LAYERS:
            if (!parse_count(optarg, &v, SYNTH_MAX_LAYERS) || !v)
                goto bad_value;
            opts.layers = (unsigned)v;
            break;
        case OPT_SEED:
            if (!parse_count(optarg, &opts.seed, UINT64_MAX))
                goto bad_value;
            break;
        case OPT_CONV:
            opts.conv = true;
            break;
        case OPT_MOE:
            opts.moe = true;
            break;
        case OPT_GZIP:
            opts.gzip = true;
            break;
        case OPT_LEVEL:
            if (!parse_count(optarg, &v, 9) || !v)
                goto bad_value;
            opts.gzip_level = (int)v;
            break;
        case 'o':
            out = optarg;
            break;
        case OPT_STATS:
            stats = true;
            break;
        case OPT_INJECT: {
            char msg[256];
            if (!synth_inject_parse(optarg, opts.inject_us, msg)) {
                fprintf(stderr, "torchtop gen: --inject: %s\n", msg);
                return EXIT_USAGE;
            }
            break;
        }
        case 'h':
            gen_usage(stdout);
            return EXIT_OK;
        default:
            gen_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "torchtop gen: unexpected argument '%s'\n", argv[optind]);
        gen_usage(stderr);
        return EXIT_USAGE;
    }
    if (opts.target_events && opts.target_bytes) {
        fprintf(stderr, "torchtop gen: give --events or --size, not both\n");
        return EXIT_USAGE;
    }
    if (ends_with(out, ".gz"))
        opts.gzip = true;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct synth_stats st;
    struct errinfo err = {0};
    enum status s = synth_to_file(&opts, out, &st, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (s != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop gen: %s\n", m);
        free(m);
        errinfo_clear(&err);
        return EXIT_FAILURE_RUN;
    }
    if (stats)
        print_stats(&st, out,
                    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return EXIT_OK;

bad_value:
    fprintf(stderr, "torchtop gen: bad value '%s' for --%s\n", optarg,
            longopts[c - OPT_EVENTS].name);
    return EXIT_USAGE;
}
