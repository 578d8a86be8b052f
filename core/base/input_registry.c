/* The inputs opened so far, by device and inode, under a lock. A process
 * opens a handful of inputs (a job: one per rank, a few thousand), so a
 * list scanned in full is enough. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdlib.h>

#include "core/base/input_registry.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

struct input_file {
    uint64_t dev, ino;
    char *path;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static VEC(struct input_file) inputs;

static ssize_t find_locked(uint64_t dev, uint64_t ino)
{
    for (size_t i = 0; i < inputs.n; i++)
        if (inputs.v[i].dev == dev && inputs.v[i].ino == ino)
            return (ssize_t)i;
    return -1;
}

void input_registry_add(const struct stat *st, const char *path)
{
    if (!S_ISREG(st->st_mode))
        return;
    pthread_mutex_lock(&lock);
    if (find_locked((uint64_t)st->st_dev, (uint64_t)st->st_ino) < 0)
        *VEC_ADD(&inputs) =
            (struct input_file){(uint64_t)st->st_dev, (uint64_t)st->st_ino, xstrdup(path)};
    pthread_mutex_unlock(&lock);
}

char *input_registry_find(const struct stat *st)
{
    pthread_mutex_lock(&lock);
    ssize_t i = find_locked((uint64_t)st->st_dev, (uint64_t)st->st_ino);
    char *path = i >= 0 ? xstrdup(inputs.v[i].path) : NULL;
    pthread_mutex_unlock(&lock);
    return path;
}

void input_registry_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < inputs.n; i++)
        free(inputs.v[i].path);
    VEC_FREE(&inputs);
    pthread_mutex_unlock(&lock);
}
