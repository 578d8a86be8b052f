/* Kernel names as the explorer shows them: simplified (core/symbols/kname.h) in
 * every table and tree row by default, the full demangled name when the
 * user asks (a key toggles it everywhere). The detail pane always has the
 * full name. Both forms are made the first time a name is shown, and kept.
 * Pure (no curses). */
#ifndef TORCHTOP_TUI_KNAMES_H
#define TORCHTOP_TUI_KNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

struct knames;

/* For trace t (borrowed; it must outlive the result). Starts simplified. */
struct knames *knames_new(const struct trace *t);
void knames_free(struct knames *k);

/* Show full names (true) or simplified ones. */
void knames_set_full(struct knames *k, bool full);
bool knames_full(const struct knames *k);

/* The full demangled form of string id (the string itself when it is not
 * mangled), its length in *len. Owned by k, valid until knames_free. */
const char *knames_demangled(struct knames *k, uint32_t id, size_t *len);
/* The simplified form of string id; owned by k. */
const char *knames_simplified(struct knames *k, uint32_t id, size_t *len);

/* Whether event ev is GPU work, whose name is a kernel name. */
bool knames_is_kernel(const struct knames *k, uint32_t ev);
/* The name of event ev as a row shows it: for GPU work the simplified or
 * full form (as set), else the name as recorded. Owned by k or the trace. */
const char *knames_row_name(struct knames *k, uint32_t ev, size_t *len);

/* A table cell s[0..n) of a row that refers to event ev: when the cell is
 * that kernel's name (as recorded or demangled), the form rows show;
 * otherwise s itself. *len gets the length of what is returned. */
const char *knames_cell(struct knames *k, uint32_t ev, const char *s, size_t n, size_t *len);
/* Same, but the full demangled name (for the detail pane). */
const char *knames_cell_full(struct knames *k, uint32_t ev, const char *s, size_t n, size_t *len);

#endif
