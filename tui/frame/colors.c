/* Theme tables: element -> foreground, background, attributes. */
#include "config.h"

#include "core/base/common.h"
#include "tui/frame/colors.h"

struct theme_entry {
    short fg, bg; /* -1 = terminal default */
    attr_t attr;
};

#define T(f, b, a)                                                                                 \
    {                                                                                              \
        f, b, a                                                                                    \
    }
#define D -1

static const struct theme_entry themes[THEME__COUNT][C__COUNT] =
    {
        [THEME_DEFAULT] =
            {
                [C_DEFAULT] = T(D, D, A_NORMAL),
                [C_TITLE] = T(COLOR_BLACK, COLOR_WHITE, A_NORMAL),
                [C_TITLE_FOCUS] = T(COLOR_BLACK, COLOR_CYAN, A_BOLD),
                [C_COLHEAD] = T(COLOR_GREEN, D, A_BOLD),
                [C_COLHEAD_SORT] = T(COLOR_CYAN, D, A_BOLD | A_UNDERLINE),
                [C_SELECT] = T(COLOR_BLACK, COLOR_WHITE, A_NORMAL),
                [C_SELECT_FOCUS] = T(COLOR_BLACK, COLOR_CYAN, A_NORMAL),
                [C_GUIDE] = T(COLOR_BLUE, D, A_NORMAL),
                [C_THREAD] = T(COLOR_CYAN, D, A_BOLD),
                [C_PYTHON] = T(COLOR_BLUE, D, A_BOLD),
                [C_OP] = T(D, D, A_NORMAL),
                [C_RUNTIME] = T(COLOR_YELLOW, D, A_NORMAL),
                [C_KERNEL] = T(COLOR_GREEN, D, A_NORMAL),
                [C_GROUP] = T(COLOR_MAGENTA, D, A_BOLD),
                [C_NUMBER] = T(D, D, A_NORMAL),
                [C_DIM] = T(COLOR_BLUE, D, A_BOLD),
                [C_MATCH] = T(COLOR_BLACK, COLOR_YELLOW, A_NORMAL),
                [C_COMP] = T(COLOR_GREEN, D, A_NORMAL),
                [C_COMM] = T(COLOR_MAGENTA, D, A_NORMAL),
                [C_MEMCPY] = T(COLOR_YELLOW, D, A_NORMAL),
                [C_IDLE] = T(COLOR_BLUE, D, A_NORMAL),
                [C_CPU] = T(COLOR_CYAN, D, A_NORMAL),
                [C_CURSOR] = T(COLOR_RED, D, A_BOLD),
                [C_HEADER] = T(D, D, A_NORMAL),
                [C_KEY] = T(D, D, A_BOLD),
                [C_KEYLABEL] = T(COLOR_BLACK, COLOR_CYAN, A_NORMAL),
                [C_MESSAGE] = T(D, D, A_NORMAL),
                [C_ERROR] = T(COLOR_RED, D, A_BOLD),
                [C_POPUP] = T(COLOR_BLACK, COLOR_WHITE, A_NORMAL),
                [C_DETAIL_KEY] = T(COLOR_CYAN, D, A_NORMAL),
            },
        /* Attributes only, chosen so that every element stays distinguishable
         * without colour: selection is reverse video, headers bold, matches
         * underlined, secondary text dim. */
        [THEME_MONO] =
            {
                [C_DEFAULT] = T(D, D, A_NORMAL),
                [C_TITLE] = T(D, D, A_REVERSE),
                [C_TITLE_FOCUS] = T(D, D, A_REVERSE | A_BOLD),
                [C_COLHEAD] = T(D, D, A_BOLD),
                [C_COLHEAD_SORT] = T(D, D, A_BOLD | A_UNDERLINE),
                [C_SELECT] = T(D, D, A_UNDERLINE),
                [C_SELECT_FOCUS] = T(D, D, A_REVERSE),
                [C_GUIDE] = T(D, D, A_NORMAL),
                [C_THREAD] = T(D, D, A_BOLD),
                [C_PYTHON] = T(D, D, A_DIM),
                [C_OP] = T(D, D, A_NORMAL),
                [C_RUNTIME] = T(D, D, A_NORMAL),
                [C_KERNEL] = T(D, D, A_BOLD),
                [C_GROUP] = T(D, D, A_BOLD),
                [C_NUMBER] = T(D, D, A_NORMAL),
                [C_DIM] = T(D, D, A_DIM),
                [C_MATCH] = T(D, D, A_UNDERLINE | A_BOLD),
                [C_COMP] = T(D, D, A_NORMAL),
                [C_COMM] = T(D, D, A_NORMAL),
                [C_MEMCPY] = T(D, D, A_NORMAL),
                [C_IDLE] = T(D, D, A_DIM),
                [C_CPU] = T(D, D, A_NORMAL),
                [C_CURSOR] = T(D, D, A_BOLD),
                [C_HEADER] = T(D, D, A_NORMAL),
                [C_KEY] = T(D, D, A_BOLD),
                [C_KEYLABEL] = T(D, D, A_REVERSE),
                [C_MESSAGE] = T(D, D, A_NORMAL),
                [C_ERROR] = T(D, D, A_BOLD),
                [C_POPUP] = T(D, D, A_NORMAL),
                [C_DETAIL_KEY] = T(D, D, A_BOLD),
            },
};

static enum theme active = THEME_MONO;

enum theme colors_init(enum theme want)
{
    active = THEME_MONO;
    if (want == THEME_MONO || !has_colors())
        return active;
    if (start_color() == ERR)
        return active;
    use_default_colors();
    for (int e = 0; e < C__COUNT; e++) {
        const struct theme_entry *te = &themes[want][e];
        init_pair((short)(e + 1), te->fg, te->bg);
    }
    active = want;
    return active;
}

short color_pair(enum color_elem e)
{
    return active == THEME_MONO ? 0 : (short)(e + 1);
}

attr_t color_attr(enum color_elem e)
{
    const struct theme_entry *te = &themes[active][e];
    return te->attr | (attr_t)COLOR_PAIR(color_pair(e));
}
