/* List cursor and scroll arithmetic (tui/frame/listview.h). */
#include "config.h"

#include "tui/frame/listview.h"

void listview_clamp(struct listview *lv)
{
    if (lv->n == 0) {
        lv->cur = lv->top = 0;
        return;
    }
    if (lv->cur >= lv->n)
        lv->cur = lv->n - 1;
    size_t h = lv->height > 0 ? (size_t)lv->height : 1;
    if (lv->top > lv->cur)
        lv->top = lv->cur;
    if (lv->cur >= lv->top + h)
        lv->top = lv->cur - h + 1;
    /* No empty space below the last row when the list could fill it. */
    if (lv->n >= h && lv->top + h > lv->n)
        lv->top = lv->n - h;
    if (lv->n < h)
        lv->top = 0;
}

bool listview_move(struct listview *lv, long delta)
{
    size_t old = lv->cur;
    if (lv->n == 0)
        return false;
    if (delta < 0)
        lv->cur = (size_t)-delta > lv->cur ? 0 : lv->cur - (size_t)-delta;
    else
        lv->cur = lv->cur + (size_t)delta >= lv->n ? lv->n - 1 : lv->cur + (size_t)delta;
    listview_clamp(lv);
    return lv->cur != old;
}

void listview_set(struct listview *lv, size_t row)
{
    lv->cur = row;
    listview_clamp(lv);
}

void listview_jump(struct listview *lv, size_t row)
{
    size_t h = lv->height > 0 ? (size_t)lv->height : 1;
    bool visible = row >= lv->top && row < lv->top + h;
    lv->cur = row;
    if (!visible)
        lv->top = row > h / 2 ? row - h / 2 : 0;
    listview_clamp(lv);
}

bool listview_action(struct listview *lv, enum action act)
{
    long page = lv->height > 1 ? lv->height - 1 : 1;
    switch (act) {
    case A_MOVE_UP:
        listview_move(lv, -1);
        return true;
    case A_MOVE_DOWN:
        listview_move(lv, 1);
        return true;
    case A_PAGE_UP:
        listview_move(lv, -page);
        return true;
    case A_PAGE_DOWN:
        listview_move(lv, page);
        return true;
    case A_MOVE_FIRST:
        listview_set(lv, 0);
        return true;
    case A_MOVE_LAST:
        listview_set(lv, lv->n ? lv->n - 1 : 0);
        return true;
    default:
        return false;
    }
}

void listview_scroll(struct listview *lv, long delta)
{
    size_t h = lv->height > 0 ? (size_t)lv->height : 1;
    if (lv->n <= h)
        return;
    size_t max_top = lv->n - h;
    if (delta < 0)
        lv->top = (size_t)-delta > lv->top ? 0 : lv->top - (size_t)-delta;
    else
        lv->top = lv->top + (size_t)delta > max_top ? max_top : lv->top + (size_t)delta;
    if (lv->cur < lv->top)
        lv->cur = lv->top;
    if (lv->cur >= lv->top + h)
        lv->cur = lv->top + h - 1;
}
