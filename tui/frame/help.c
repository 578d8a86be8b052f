/* Help text from the action and key tables. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "tui/frame/actions.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"

/* Which key table an action group's keys come from. */
static int group_pane(enum action_group g)
{
    switch (g) {
    case AG_TABLE:
        return PANE_TABLE;
    case AG_TREE:
        return PANE_TREE;
    case AG_TIMELINE:
        return PANE_TIMELINE;
    case AG_TRACEBACK:
        return KEYS_TRACEBACK;
    case AG_SNAPSHOT:
        return KEYS_SNAP_TABLE;
    case AG_DIFF:
        return KEYS_DIFF_TABLE;
    default:
        return PANE__COUNT;
    }
}

/* Further tables of a group whose actions are spread over several views:
 * an action's keys come from the first table that binds it. */
static const int more_tables[][3] = {
    [AG_TRACEBACK] = {KEYS_SOURCE, PANE_DETAIL, -1},
    [AG_SNAPSHOT] = {KEYS_SNAP_MEMORY, KEYS_SNAP_CHART, -1},
    [AG_DIFF] = {KEYS_DIFF_TREE, KEYS_DIFF_SIDES, -1},
};

static bool group_keys(enum action_group g, enum action act, char *buf, size_t n)
{
    if (keymap_keys_for(group_pane(g), act, buf, n))
        return true;
    if ((size_t)g >= sizeof(more_tables) / sizeof(more_tables[0]))
        return false;
    for (int i = 0; i < 3 && more_tables[g][i] > 0; i++)
        if (keymap_keys_for(more_tables[g][i], act, buf, n))
            return true;
    return false;
}

static enum action_group pane_group(int pane)
{
    switch (pane) {
    case PANE_TABLE:
        return AG_TABLE;
    case PANE_TREE:
        return AG_TREE;
    case PANE_TIMELINE:
        return AG_TIMELINE;
    case KEYS_TRACEBACK:
    case KEYS_SOURCE:
        return AG_TRACEBACK;
    case KEYS_SNAP_TABLE:
    case KEYS_SNAP_MEMORY:
    case KEYS_SNAP_CHART:
        return AG_SNAPSHOT;
    case KEYS_JOB_TABLE:
    case KEYS_SCOPE_TABLE:
        return AG_TABLE;
    default:
        return AG__COUNT;
    }
}

/* Actions that do nothing on a memory snapshot: it has no call tree,
 * timeline, roofline or kernel names. */
static bool trace_only(enum action act)
{
    enum action_group g = action_group(act);
    if (g == AG_TREE || g == AG_TIMELINE)
        return true;
    switch (act) {
    case A_FOCUS_TREE:
    case A_FOCUS_TIMELINE:
    case A_KERNEL_NAMES:
    case A_EXPORT:
    case A_ROOFLINE:
    case A_CRITPATH:
    case A_WHATIF:
    case A_FINDINGS:
    case A_STEPS:
        return true;
    default:
        return false;
    }
}

/* Group g's actions with their keys; own: the key table they come from
 * instead of the group's (the focused pane's, when it is a variant of the
 * group's table), -1: the group's. */
static void put_group(struct strbuf *out, enum action_group g, bool snapshot, int own)
{
    size_t title = out->len;
    sb_printf(out, "\n%s\n", action_group_title(g));
    size_t body = out->len;
    for (int act = 1; act < A__COUNT; act++) {
        if (action_group((enum action)act) != g || (snapshot && trace_only((enum action)act)))
            continue;
        char keys[96];
        if (own >= 0 ? !keymap_keys_for(own, (enum action)act, keys, sizeof(keys))
                     : !group_keys(g, (enum action)act, keys, sizeof(keys)))
            continue;
        sb_printf(out, "  %-20s %-15s %s\n", keys, action_name((enum action)act),
                  action_help((enum action)act));
    }
    if (out->len == body)
        out->len = title; /* nothing bound here: no title either */
}

void help_views(struct strbuf *out, const char *const *names, int n)
{
    sb_puts(out, "\nTable views (v next, V previous, in this order)\n");
    size_t line = out->len;
    sb_puts(out, " ");
    for (int i = 0; i < n; i++) {
        if (out->len - line + strlen(names[i]) + 4 > 76) {
            sb_puts(out, "\n ");
            line = out->len - 2;
        }
        sb_printf(out, " %s%s", names[i], i + 1 < n ? "," : "");
    }
    sb_putc(out, '\n');
}

/* Every action key table `keytab` binds, in the table's order, with all
 * its keys there (the global ones it does not shadow too). */
static void put_own(struct strbuf *out, const char *title, int keytab)
{
    sb_printf(out, "\n%s\n", title);
    const struct keybind *kb = keymap_table(keytab);
    for (size_t i = 0; kb[i].key; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = kb[j].action == kb[i].action;
        char keys[96];
        if (seen || !keymap_keys_for(keytab, kb[i].action, keys, sizeof(keys)))
            continue;
        sb_printf(out, "  %-20s %-15s %s\n", keys, action_name(kb[i].action),
                  action_help(kb[i].action));
    }
}

void help_text(struct strbuf *out, int pane)
{
    help_text_mode(out, pane, HELP_ALL);
}

static void put_mouse(struct strbuf *out);

void help_text_mode(struct strbuf *out, int pane, enum help_mode mode)
{
    bool snapshot = mode == HELP_SNAPSHOT || mode == HELP_TABLES;
    if (mode == HELP_DIFF) {
        /* A diff's panes bind keys of several groups (1-5, sorting,
         * the tree's): each pane's own table, then what every pane has. */
        sb_puts(out, "torchtop diff keys (this pane's first; q or Esc closes, j/k scroll)\n");
        put_own(out, "This pane", pane);
        for (int g = AG_GLOBAL; g <= AG_SEARCH; g++)
            put_group(out, (enum action_group)g, false, pane);
        put_mouse(out);
        return;
    }
    if (pane < PANE__COUNT)
        sb_puts(out, "torchtop keys (this pane's first; q or Esc closes, j/k scroll)\n");
    else
        sb_puts(out, "torchtop keys\n");
    enum action_group first = pane_group(pane);
    if (first != AG__COUNT)
        put_group(out, first, snapshot, pane == KEYS_JOB_TABLE ? pane : -1);
    for (int g = 0; g < AG__COUNT; g++)
        if ((enum action_group)g != first &&
            (mode != HELP_TABLES || g == AG_GLOBAL || g == AG_MOVE || g == AG_SEARCH) &&
            (mode != HELP_TRACE || (enum action_group)g != AG_SNAPSHOT) &&
            (mode == HELP_ALL || (enum action_group)g != AG_DIFF))
            put_group(out, (enum action_group)g, snapshot, -1);
    put_mouse(out);
}

static void put_mouse(struct strbuf *out)
{
    sb_puts(out, "\nMouse\n"
                 "  click            select and focus; click a column header to sort by it,\n"
                 "                   a detail line naming an event to select that event\n"
                 "  double-click     open/close a tree node; drill into a table row\n"
                 "  wheel            scroll\n"
                 "\nSearch patterns\n"
                 "  plain text is a substring; with ^$*+?()[]{}|\\ it is a POSIX extended\n"
                 "  regex; lower-case text ignores case; re:TEXT forces a regex, =TEXT a\n"
                 "  substring\n");
}
