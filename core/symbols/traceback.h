/* Combined tracebacks: the chain of code behind an event of a trace.
 *
 * For a kernel (or copy, memset) the chain is
 *   kernel <- runtime launch <- ops (innermost first) <- Python frames
 * and for a host event it starts at the event itself. Frames come newest
 * (innermost) first, as in a memory snapshot:
 * - GPU work links to its launch through the correlation id (tree.h);
 * - host events follow the time nesting of their thread (event.parent);
 * - a Python frame whose "Python parent id" (the frame's event.aux) is not one
 *   of its time-nesting ancestors continues there after the ops above it
 *   on its own thread: a backward hook on the autograd thread is followed
 *   by the autograd ops that ran it, then by the Python code of the main
 *   thread that called backward() (those frames have TBF_CROSS_THREAD);
 * - traces without python_function events (PyTorch 1.8-1.12) carry the
 *   Python stack in the "Call stack" arg of ops, innermost first and
 *   ';'-separated; the innermost op's stack is the Python stack at that
 *   time and its frames follow the ops (flag TBF_CALLSTACK). An enclosing
 *   op with a stack of its own goes above the inner frames it does not
 *   share (frames compared by file and function, from the outermost); its
 *   other frames, where that scope was opened, are left out;
 * - an op with a "kernel_file" arg (a Triton kernel launched by Inductor
 *   code) is preceded by an inductor frame naming that generated file;
 * - "nn.Module: X_0" Python frames have TBF_MODULE;
 * - with traceback_of_event_forward, a chain through a backward op (one
 *   whose Sequence number partner ran before it) goes on with its forward
 *   op's own chain, frames flagged TBF_FORWARD: the Python line the
 *   backward ran for;
 * - a graph-replayed kernel attributed through a capture (capture.h) has
 *   the captured launch, ops and frames (TBF_CAPTURED), then the replay's
 *   graph launch and the Python stack that ran it.
 * Python frame names "path.py(123): func" are split into file, line and
 * function; "<built-in method ...>" frames keep their name.
 *
 * Ownership: a struct traceback owns the frames and the strings it had to
 * build (demangled kernel names, split Python frames); the other strings
 * are borrowed from the trace. Valid until traceback_clear/_done or
 * trace_free, whichever comes first. Not thread-safe per traceback; many
 * tracebacks may read one trace at once. */
#ifndef TORCHTOP_CORE_TRACEBACK_H
#define TORCHTOP_CORE_TRACEBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/trace/trace.h"
#include "core/base/vec.h"

/* clang-format off */
#define TB_KIND_INFO(_)                                                        \
    _(TB_PYTHON,   "python")   /* Python (or TorchScript) function */           \
    _(TB_OP,       "op")       /* cpu_op, user annotation, record_function */   \
    _(TB_RUNTIME,  "runtime")  /* CUDA/HIP runtime or driver call */            \
    _(TB_KERNEL,   "kernel")   /* GPU kernel, copy or memset */                 \
    _(TB_NATIVE,   "native")   /* C++ frame (from a memory snapshot) */         \
    _(TB_INDUCTOR, "inductor") /* Inductor-generated source file */
/* clang-format on */

enum tb_kind {
#define TB_KIND_ENUM(id, name) id,
    TB_KIND_INFO(TB_KIND_ENUM)
#undef TB_KIND_ENUM
};

const char *tb_kind_name(enum tb_kind k);

enum tb_flags {
    TBF_MODULE = 1 << 0,       /* "nn.Module: X" frame */
    TBF_CALLSTACK = 1 << 1,    /* parsed from a "Call stack" arg */
    TBF_CROSS_THREAD = 1 << 2, /* reached through Python parent id across threads */
    TBF_ANNOTATION = 1 << 3,   /* user annotation (record_function) op */
    TBF_FORWARD = 1 << 4,      /* the forward op of a backward op above (Sequence number
                                  link) and its callers */
    TBF_CAPTURED = 1 << 5,     /* copied from a graph capture trace (capture.h): the
                                  replay's graph launch and its callers come after */
};

struct tb_frame {
    uint8_t kind;     /* enum tb_kind */
    uint8_t flags;    /* enum tb_flags */
    uint32_t ev;      /* event behind the frame; IDX_NONE for Call stack
                         frames and frames added with traceback_push */
    const char *name; /* function, op, call or kernel name (kernels
                         demangled); never NULL */
    const char *file; /* source file, or NULL */
    int64_t line;     /* source line, 0 when unknown */
    const char *text; /* the frame as the trace wrote it (event name or
                         Call stack entry); never NULL */
};

struct traceback {
    VEC(struct tb_frame) frames; /* newest (innermost) first */
    struct arena arena;          /* strings built for the frames */
};

void traceback_init(struct traceback *tb);
void traceback_done(struct traceback *tb);
/* Forget the frames; keeps the memory for reuse. */
void traceback_clear(struct traceback *tb);

/* Replace tb's frames with the combined traceback of event ev of t, which
 * must be indexed (trace_index, done by trace_load_file). Events without
 * any link give a single frame. */
void traceback_of_event(struct traceback *tb, const struct trace *t, uint32_t ev);
/* The same, continued into the forward op of the innermost backward op on
 * the chain (TBF_FORWARD frames), for a reader going from a backward kernel
 * to the model code; folded stacks keep the chain as it ran. */
void traceback_of_event_forward(struct traceback *tb, const struct trace *t, uint32_t ev);

/* Append a frame; name/file are copied (file may be NULL). For callers
 * that build tracebacks from other sources (native frames of a memory
 * snapshot). Returns the frame, valid until the next push. */
struct tb_frame *traceback_push(struct traceback *tb, enum tb_kind kind, const char *name,
                                const char *file, int64_t line);

/* A Python frame name split up: "path/x.py(123): func" or, in the
 * "Call stack" of old traces, the same form. Spans point into the input. */
struct pyframe {
    const char *file;
    size_t file_len;
    int64_t line;
    const char *func;
    size_t func_len;
};

/* Split s[0..n); false when it is not of that form (built-in methods,
 * "nn.Module: X"), leaving *out untouched. */
bool traceback_pyframe_parse(const char *s, size_t n, struct pyframe *out);

#endif
