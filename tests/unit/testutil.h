/* Helpers shared by the cmocka unit tests. Include after cmocka.h. */
#ifndef TORCHTOP_TESTS_TESTUTIL_H
#define TORCHTOP_TESTS_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include "core/trace/load.h"
#include "core/trace/trace.h"

/* Load a trace from text; asserts it loads without error. */
static inline struct trace *load_text(const char *json)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1};
    enum status st = trace_load_mem("test.json", json, strlen(json), &o, &t, &err);
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        print_error("load failed: %s\n", m);
        free(m);
    }
    assert_int_equal(st, ST_OK);
    errinfo_clear(&err);
    return t;
}

/* The trace of the events given (a NULL-terminated list of JSON objects)
 * in one traceEvents array, loaded as load_text does. */
static inline struct trace *load_events(const char *const *evs)
{
    size_t n = 32;
    for (size_t i = 0; evs[i]; i++)
        n += strlen(evs[i]) + 1;
    char *json = malloc(n);
    assert_non_null(json);
    strcpy(json, "{\"traceEvents\":[");
    for (size_t i = 0; evs[i]; i++) {
        if (i)
            strcat(json, ",");
        strcat(json, evs[i]);
    }
    strcat(json, "]}");
    struct trace *t = load_text(json);
    free(json);
    return t;
}

/* Load and expect a failure; returns the status, fills *msg (malloc'd). */
static inline enum status load_fail(const char *json, size_t len, struct trace **out, char **msg)
{
    struct errinfo err = {0};
    struct load_opts o = {.threads = 1};
    enum status st = trace_load_mem("bad.json", json, len, &o, out, &err);
    *msg = st != ST_OK ? errinfo_format(&err) : NULL;
    errinfo_clear(&err);
    return st;
}

/* Index of the first event named `name` (asserts it exists). */
static inline uint32_t find_event(const struct trace *t, const char *name)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (strcmp(ev_name(t, i), name) == 0)
            return i;
    fail_msg("no event named %s", name);
    return IDX_NONE;
}

/* Directory of the shared test data, or NULL (skip) / failure under CI. */
static inline const char *shared_dir(void)
{
    static char path[4096];
    const char *env = getenv("TORCHTOP_SHARED");
    const char *src = getenv("top_srcdir");
    snprintf(path, sizeof(path), "%s", env ? env : "");
    if (!env)
        snprintf(path, sizeof(path), "%s/../shared", src ? src : ".");
    char probe[4200];
    snprintf(probe, sizeof(probe), "%s/traces", path);
    FILE *f = fopen(probe, "r");
    if (f) {
        fclose(f);
        return path;
    }
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0)
        fail_msg("%s is missing; CI needs ../shared beside the checkout", probe);
    return NULL;
}

#endif
