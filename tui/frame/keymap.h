/* Key tables: which key runs which action, per pane and globally, and key
 * names ("j", "<Enter>", "<C-c>", "<S-Tab>") for scripts and the help.
 *
 * A key is an int: a character (its code point; control characters as
 * 1..31) or a curses function key wrapped in KEYF(). Lookup tries the
 * focused pane's table first, then the global table. */
#ifndef TORCHTOP_TUI_KEYMAP_H
#define TORCHTOP_TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/actions.h"

#define KEYF_BIT 0x01000000
#define KEYF(k) (KEYF_BIT | (k))
#define KEY_IS_FN(k) (((k)&KEYF_BIT) != 0)
#define KEY_CTRL(c) ((c)&0x1f)
#define KEY_ESC 27

/* The panes, in focus order. */
enum pane_id { PANE_TABLE, PANE_TREE, PANE_TIMELINE, PANE_DETAIL, PANE__COUNT };

/* Key tables of views that take a pane's place (the traceback and the
 * source preview in the detail pane, the memory snapshot views); a pane
 * says which table is in force (pane_keytab). Pane ids name their own
 * tables and PANE__COUNT the global one. */
enum keytab {
    KEYS_TRACEBACK = PANE__COUNT + 1,
    KEYS_SOURCE,
    KEYS_SNAP_TABLE,
    KEYS_SNAP_MEMORY,
    KEYS_SNAP_CHART,
    KEYS_DIFF_TABLE,  /* a trace diff's tables (tui/diff/diff_doc.h) */
    KEYS_DIFF_TREE,   /* a trace diff's merged call tree */
    KEYS_DIFF_SIDES,  /* a trace diff's two sides: Enter opens one */
    KEYS_JOB_TABLE,   /* a job's tables (tui/job/job_doc.h): Enter opens a rank */
    KEYS_SCOPE_TABLE, /* a trace's step list: Enter shows every view for the step */
    KEYS__COUNT
};

struct keybind {
    int key;
    enum action action;
    const char *bar; /* label in the key bar; NULL = not shown there */
};

/* Bindings of a pane or an enum keytab (PANE__COUNT = the global table),
 * ending with key 0. */
const struct keybind *keymap_table(int pane);
/* Action for key with table `pane` in force: that table, then the global
 * one; A_NONE when unbound. */
enum action keymap_lookup(int pane, int key);

/* Normalize what curses returned (wget_wch: is_fn for KEY_CODE_YES) into a
 * key: Enter variants become '\n', Backspace variants KEYF(KEY_BACKSPACE). */
int keymap_normalize(int code, bool is_fn);

/* Parse one key name at s ("j", "<Enter>", "<C-x>", "<lt>", a UTF-8
 * character). Returns the bytes used, 0 when s does not start with a key. */
size_t keymap_key_parse(const char *s, int *key);
/* Name of a key, as keymap_key_parse reads it. */
void keymap_key_name(int key, char *buf, size_t n);

/* All keys bound to action a in pane's table or the global table, as
 * names joined by " " into buf; false when none. */
bool keymap_keys_for(int pane, enum action a, char *buf, size_t n);

#endif
