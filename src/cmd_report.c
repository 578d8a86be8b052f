/* torchtop report: load a trace and print its analyses. */
#include "config.h"

#include <stdio.h>

#include "core/load.h"
#include "core/trace.h"
#include "src/commands.h"

int cmd_report(int argc, char **argv)
{
    if (argc < 2)
        return EXIT_USAGE;
    struct errinfo err = {0};
    struct trace *t = NULL;
    enum status st = trace_load_file(argv[1], NULL, &t, &err);
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
    }
    printf("events %zu rows %zu flows %zu strings %zu gpu %llu unlinked %llu mem %zu\n", t->ev.n,
           t->rows.n, t->flows.n, strtab_count(&t->strs), (unsigned long long)t->n_gpu,
           (unsigned long long)t->n_unlinked, trace_memory(t));
    for (int k = 0; k < EVK__COUNT; k++)
        if (t->n_by_kind[k])
            printf("  %s %llu\n", ev_kind_name(k), (unsigned long long)t->n_by_kind[k]);
    trace_free(t);
    errinfo_clear(&err);
    return st == ST_OK ? EXIT_OK : EXIT_BAD_INPUT;
}
