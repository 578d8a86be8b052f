/* The trace cache's parts (tracecache.h) as its files share them: the
 * checksum, and the checks of a trace read back that the reader runs on two
 * threads. Each check returns false with why filled at the first failure. */
#ifndef TORCHTOP_CORE_TRACECACHE_INTERNAL_H
#define TORCHTOP_CORE_TRACECACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/common.h"
#include "core/trace/trace.h"

/* A 64-bit checksum of n bytes (tracecache_file.c). */
uint64_t tracecache_sum(const void *data, size_t n);

/* Read n bytes at offset at of fd (all of them, or false). */
bool tracecache_read_at(int fd, void *buf, size_t n, uint64_t at);

/* Length of trace.launch_gpu: every launch's GPU events. */
uint64_t tracecache_launch_gpu_len(const struct trace *t);
/* The array counts within the index type; the tables' first entries. */
bool tracecache_check_counts(const struct trace *t, char *why, size_t whylen);
/* Every event's and side table's indices, and the links: the call tree's
 * descent reaches each event once, and no parent chain loops. */
bool tracecache_check_tree(const struct trace *t, char *why, size_t whylen);
/* Rows and their orders, flows, devices, kept texts, grafts. */
bool tracecache_check_rows(const struct trace *t, char *why, size_t whylen);
/* Every event's packed arguments read, their ids within the tables. */
bool tracecache_check_args(const struct trace *t, char *why, size_t whylen);

/* Fill why from fmt and return false. */
bool tracecache_fail(char *why, size_t n, const char *fmt, ...) ATTR_FORMAT(3, 4);

#endif
