/* Colours as semantic elements: drawing code asks for C_KERNEL or
 * C_SELECT_FOCUS, never for a raw colour. Two themes: "default" (colours
 * on the terminal's own background) and "mono" (attributes only; used
 * with NO_COLOR, --no-color, in script mode and when the terminal has no
 * colours). */
#ifndef TORCHTOP_TUI_COLORS_H
#define TORCHTOP_TUI_COLORS_H

#include <curses.h>
#include <stdbool.h>

enum color_elem {
    C_DEFAULT,
    C_TITLE,        /* pane title line, unfocused */
    C_TITLE_FOCUS,  /* pane title line, focused */
    C_COLHEAD,      /* column headers */
    C_COLHEAD_SORT, /* the sort column's header */
    C_SELECT,       /* cursor row of an unfocused pane */
    C_SELECT_FOCUS, /* cursor row of the focused pane */
    C_GUIDE,        /* tree guides and separators */
    C_THREAD,       /* thread and stream roots */
    C_PYTHON,       /* Python frames */
    C_OP,           /* cpu ops and annotations */
    C_RUNTIME,      /* runtime and driver calls */
    C_KERNEL,       /* GPU work */
    C_GROUP,        /* grouped siblings */
    C_NUMBER,       /* numbers in tables */
    C_DIM,          /* secondary text */
    C_MATCH,        /* search and filter matches */
    C_COMP,         /* timeline: computation */
    C_COMM,         /* timeline: communication */
    C_MEMCPY,       /* timeline: memcpy */
    C_IDLE,         /* timeline: idle */
    C_CPU,          /* timeline: CPU ops lane */
    C_CURSOR,       /* timeline cursor and selection span */
    C_HEADER,       /* header lines */
    C_KEY,          /* key names in the key bar and help */
    C_KEYLABEL,     /* labels in the key bar */
    C_MESSAGE,      /* message line */
    C_ERROR,        /* error messages */
    C_POPUP,        /* help overlay and menus */
    C_DETAIL_KEY,   /* field names in the detail pane */
    C__COUNT
};

enum theme { THEME_DEFAULT, THEME_MONO, THEME__COUNT };

/* Set up colour pairs for the theme (after initscr/newterm). Falls back to
 * THEME_MONO when the terminal has no colours. Returns the theme used. */
enum theme colors_init(enum theme want);
/* Attributes (pair included) of an element in the active theme. */
attr_t color_attr(enum color_elem e);
/* Colour pair of an element (0 in the mono theme). */
short color_pair(enum color_elem e);

#endif
