/* Reading script steps: the parts of the explorer's script mode
 * (tui/frame/script.c) that need no app, unit-tested alone. A script is a
 * file of steps, one a line; blank lines and lines starting with '#' are
 * none. script.c gives the steps their meaning. */
#ifndef TORCHTOP_TUI_SCRIPT_STEPS_H
#define TORCHTOP_TUI_SCRIPT_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/base/strbuf.h"

struct script_reader {
    FILE *f;
    const char *path; /* borrowed */
    char *line;       /* the current step (getline's buffer) */
    size_t cap;
    int lineno;
};

/* Open path; false after printing "cannot read the script PATH". */
bool script_reader_open(struct script_reader *r, const char *path);
/* The next step, blanks trimmed at both ends, or NULL at the end. The
 * text stays valid until the next call. */
char *script_reader_next(struct script_reader *r);
void script_reader_close(struct script_reader *r);

/* Print "torchtop: PATH:LINE: WHY: STEP" (sanitized) for the current
 * step; returns 1, the runners' failure status. */
int script_fail(const struct script_reader *r, const char *step, const char *why);

/* The step's first word (cut to fit word[n]); returns the rest, its
 * leading blanks skipped. */
const char *script_step_word(const char *step, char *word, size_t n);

/* Feed each key written in s to feed(ud, key), in keymap_key_parse()
 * notation (blanks between keys skipped) or, literal, every character as
 * typed. feed returns false when the runner quits: the rest is not fed.
 * Returns false on text that is not keys. */
bool script_feed_keys(const char *s, bool literal, bool (*feed)(void *ud, int key), void *ud);

/* A script screen's size, "WIDTHxHEIGHT", each 1 to 1000 (--size, the
 * resize step); false when s is not one. */
bool script_parse_size(const char *s, int *cols, int *lines);

/* Write text to path whole (a temporary file renamed into place); false
 * when it cannot be written. */
bool script_write_text(const char *path, const struct strbuf *text);

#endif
