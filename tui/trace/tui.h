/* The interactive explorer: `torchtop [OPTIONS] [TRACE|SNAPSHOT]`.
 *
 * tui_main() loads the trace (or memory snapshot) behind a progress screen (cancellable with
 * Ctrl-C), builds the analyses once, and runs the explorer until the user
 * quits; in script mode it runs a script of actions and keys headless
 * instead (tui/frame/script.h). */
#ifndef TORCHTOP_TUI_TUI_H
#define TORCHTOP_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

struct scope;
struct source;
struct srcpath;

struct tui_opts {
    const char *path;   /* trace file ("-" = stdin) */
    struct source *src; /* opened (and sniffed) input instead of path (borrowed) */
    bool snapshot;      /* src holds a CUDA memory snapshot pickle, not a trace */
    const char *name;   /* name shown in the header; NULL = from path */
    const void *mem;    /* in-memory trace instead of path (borrowed) */
    size_t mem_len;
    bool no_color;                 /* monochrome theme */
    bool ascii;                    /* ASCII glyphs even in a UTF-8 locale */
    const char *script;            /* run this script headless (NULL: interactive) */
    const char *script_timing;     /* script mode: write per-step times here */
    int script_lines, script_cols; /* script mode screen size (0: 30x100) */
    unsigned threads;              /* parser threads; 0 = default */
    bool no_cache;                 /* neither read nor write the trace's cache (tracecache.h) */
    const char *arch;              /* roofline device peaks (--arch); NULL: from the trace */
    bool back_quits;               /* opened from another view: Backspace with
                                      nothing to go back to returns there */
    const char *const *captures;   /* --capture paths (capture.h), ncaptures of them */
    size_t ncaptures;
    struct srcpath *srcpath;   /* where frames' source files are looked for (borrowed); NULL:
                                  as named, from the current directory */
    const struct scope *scope; /* open the trace's scope (core/trace/scope.h) in its place;
                                  NULL: the whole trace */
};

/* Run the explorer. Returns the process exit status (0 ok, 1 run failure,
 * 2 bad input, 64 a scope the trace does not have). Errors go to stderr after the terminal is
 * restored. */
int tui_main(const struct tui_opts *o);

struct app;
/* Load o's trace as a view to open on top of another (app_push): with the
 * progress screen on the terminal (already open), or without one when
 * headless (a script). NULL with *why (owned) when it cannot be shown:
 * cancelled, unreadable, no events. A fault after some events shows what
 * was read, with the fault on the message line. */
struct app *tui_open_view(const struct tui_opts *o, bool headless, bool ascii, char **why);
/* Open o's trace (tui_open_view) as a view on top of a (app_push), its
 * first message saying that q or Backspace comes back to `below` ("the
 * job"). When it cannot be shown, the reason is on a's message line.
 * Returns the reactions for a. */
unsigned tui_push_view(struct app *a, const struct tui_opts *o, const char *below);
/* Open the scope s of a's trace (the top view's) as a view on top of it:
 * every view computed for the scope (the first screen's before it shows,
 * the others behind it), its header saying what the scope holds; Esc or
 * Backspace returns to the whole trace. When the scope cannot be taken
 * (nothing in it, the file changed), the reason is on the message line.
 * Returns the reactions for a. */
unsigned tui_push_scope(struct app *a, const struct scope *s);
/* The terminal's key loop over a (and the views opened from it) until a
 * quits. */
void tui_loop(struct app *a);
/* Open the terminal for a document already loaded (a job, a diff): the
 * real terminal, or when o has a script a headless screen of the script's
 * size. *ascii: whether to draw ASCII glyphs only (asked, or not a UTF-8
 * locale). false when the terminal cannot be opened. */
bool tui_term_open(const struct tui_opts *o, bool *ascii);
/* Run a (initialised on the terminal tui_term_open opened): o's script
 * when it has one, else the key loop; then release a and close the
 * terminal. Returns the exit status (the script's; 0 from the loop). */
int tui_run(struct app *a, const struct tui_opts *o);

#endif
