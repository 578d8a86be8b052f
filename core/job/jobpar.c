/* Several inputs at once (jobpar.h). */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include "core/job/jobpar.h"

size_t jobpar_workers(size_t n, size_t max)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t w = cores > 0 ? (size_t)cores : 1;
    w = w > max ? max : w;
    w = w > n ? n : w;
    return w ? w : 1;
}

unsigned jobpar_parse_threads(size_t workers, unsigned total)
{
    if (workers < 2)
        return total;
    if (total)
        return (unsigned)((total + workers - 1) / workers);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t each = cores > 0 ? (size_t)cores / workers : 1;
    return each > 4 ? 4 : each ? (unsigned)each : 1;
}

struct jobpar {
    size_t n, next, done;
    bool stop;
    jobpar_fn fn;
    jobpar_begin_fn begin;
    void *ud;
    pthread_mutex_t mu;
};

static void *jobpar_worker(void *arg)
{
    struct jobpar *P = arg;
    for (;;) {
        pthread_mutex_lock(&P->mu);
        size_t i = P->stop ? P->n : P->next++;
        if (i < P->n && P->begin)
            P->begin(P->ud, i, P->n);
        pthread_mutex_unlock(&P->mu);
        if (i >= P->n)
            return NULL;
        bool ok = P->fn(P->ud, i);
        pthread_mutex_lock(&P->mu);
        P->done++;
        P->stop |= !ok;
        pthread_mutex_unlock(&P->mu);
    }
}

bool jobpar_run(size_t n, size_t workers, jobpar_fn fn, jobpar_begin_fn begin, void *ud)
{
    struct jobpar P = {.n = n, .fn = fn, .begin = begin, .ud = ud};
    pthread_mutex_init(&P.mu, NULL);
    enum { MAX_THREADS = 64 };
    pthread_t tid[MAX_THREADS];
    size_t started = 0;
    workers = workers > MAX_THREADS ? MAX_THREADS : workers;
    if (workers > 1 && n > 1)
        for (; started < workers; started++)
            if (pthread_create(&tid[started], NULL, jobpar_worker, &P) != 0)
                break;
    if (!started)
        jobpar_worker(&P);
    for (size_t k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    pthread_mutex_destroy(&P.mu);
    return !P.stop && P.done == n;
}
