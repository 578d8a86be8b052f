/* Name patterns for search and filter: a substring, or a POSIX extended
 * regex when the text holds regex characters ( ^ $ * + ? ( ) [ ] { } | \ ).
 * Case-insensitive unless the text has an upper-case letter ("smart
 * case"). A "re:" prefix forces a regex, a "=" prefix a plain substring.
 * Pure (no curses). */
#ifndef TORCHTOP_TUI_PATTERN_H
#define TORCHTOP_TUI_PATTERN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pattern {
    char *text;   /* as typed; NULL when unset */
    char *needle; /* substring (lower-cased when icase) */
    bool regex;   /* re is compiled */
    bool icase;
    regex_t re;
    /* Verdicts per string-table id: 0 unknown, 1 no, 2 yes. */
    uint8_t *memo;
    size_t memo_n;
};

/* Compile text into p (any previous pattern is released). Returns false
 * with a message in err (size n) when the regex does not compile; p is
 * then unset. An empty text unsets p and returns true. */
bool pattern_set(struct pattern *p, const char *text, char *err, size_t n);
void pattern_clear(struct pattern *p);
static inline bool pattern_active(const struct pattern *p)
{
    return p->text != NULL;
}
/* Whether s matches (an unset pattern matches everything). */
bool pattern_match(const struct pattern *p, const char *s);
/* Same, remembered per id of a table of `count` strings. */
bool pattern_match_id(struct pattern *p, uint32_t id, const char *s, size_t count);

/* A search step over n rows whose matches are marked in hit: the next
 * (dir >= 0) or previous marked row after cur, wrapping round; SIZE_MAX
 * when none is marked. Sets *rank (from 1) and *total among the marked
 * rows, and *wrapped when the step went past an end (or came back to cur,
 * the only match). */
size_t pattern_next_hit(const bool *hit, size_t n, size_t cur, int dir, size_t *rank, size_t *total,
                        bool *wrapped);

#endif
