/* Itanium C++ demangling of kernel and function names (libiberty).
 *
 * Kineto leaves names longer than 1024 bytes mangled (CUTLASS, Composable
 * Kernel); DWARF linkage names and ELF symbols are always mangled. Only
 * names that start with "_Z" are demangled: plain names such as "main" or
 * "ampere_sgemm_128x64_tn" are left alone, and there is no length cap.
 * Every function here is pure and thread-safe. */
#ifndef TORCHTOP_CORE_DEMANGLE_H
#define TORCHTOP_CORE_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"

/* Whether name looks like an Itanium mangled name ("_Z..."). */
bool demangle_is_mangled(const char *name);

/* The demangled form of name (parameters included, as c++filt prints it),
 * malloc'd; NULL when name is not mangled or cannot be demangled. */
char *demangle(const char *name);

/* Like demangle(), but never NULL: a malloc'd copy of name when it does
 * not demangle. */
char *demangle_or_copy(const char *name);

/* Append the demangled form of name (or name itself) to out. */
void demangle_put(struct strbuf *out, const char *name);

#endif
