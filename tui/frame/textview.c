/* Deep indents of tree rows and the moves of menus
 * (tui/frame/textview.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/display.h"
#include "tui/frame/actions.h"
#include "tui/frame/keymap.h"
#include "tui/frame/textview.h"

size_t textview_deep_indent(size_t levels, size_t depth, size_t room, size_t unit, bool ascii,
                            char *buf, size_t n)
{
    buf[0] = '\0';
    if (levels <= room)
        return levels;
    const char *dot = ascii ? "." : "\xc2\xb7";
    unit = unit ? unit : 1;
    snprintf(buf, n, "%s%zu%s", dot, depth, dot);
    /* Padded to whole levels, so that the guides after it stay aligned
     * from one row to the next. */
    size_t mw = display_width(buf, strlen(buf));
    for (size_t len = strlen(buf); mw % unit && len + 1 < n; len++, mw++)
        buf[len] = ' ', buf[len + 1] = '\0';
    size_t cols = room * unit;
    return mw < cols ? MIN(levels, (cols - mw) / unit) : 0;
}

enum action textview_menu_move(int *cur, int n, int key)
{
    /* The detail pane's table: moves and Enter, no pane's own letters. */
    enum action act = keymap_lookup(PANE_DETAIL, key);
    /* The numbers drawn beside the first nine items pick them. */
    if (key >= '1' && key <= '9' && key - '1' < n) {
        *cur = key - '1';
        return A_ACTIVATE;
    }
    switch (act) {
    case A_MOVE_DOWN:
        *cur = MIN(*cur + 1, n - 1);
        return A_NONE;
    case A_MOVE_UP:
        *cur = MAX(*cur - 1, 0);
        return A_NONE;
    case A_PAGE_DOWN:
        *cur = MIN(*cur + 10, n - 1);
        return A_NONE;
    case A_PAGE_UP:
        *cur = MAX(*cur - 10, 0);
        return A_NONE;
    case A_MOVE_FIRST:
        *cur = 0;
        return A_NONE;
    case A_MOVE_LAST:
        *cur = n - 1;
        return A_NONE;
    case A_ACTIVATE:
        return A_ACTIVATE;
    case A_QUIT:
    case A_CANCEL:
    case A_MOVE_LEFT:
        return A_CANCEL;
    default:
        return A_NONE;
    }
}
