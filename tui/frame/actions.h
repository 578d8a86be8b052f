/* Named actions: every thing a key, a mouse event or a script line can ask
 * the explorer to do, defined once. The name is what scripts and the help
 * overlay use; the group orders the help. Keys are bound to actions in
 * tui/frame/keymap.c. */
#ifndef TORCHTOP_TUI_ACTIONS_H
#define TORCHTOP_TUI_ACTIONS_H

/* clang-format off */
#define ACTION_GROUP_INFO(_)                                                   \
    _(AG_GLOBAL,   "Global")                                                   \
    _(AG_MOVE,     "Moving")                                                   \
    _(AG_SEARCH,   "Search and filter")                                        \
    _(AG_TABLE,    "Op table")                                                 \
    _(AG_TREE,     "Call tree")                                                \
    _(AG_TIMELINE, "Timeline")                                                 \
    _(AG_TRACEBACK, "Traceback and source")                                    \
    _(AG_SNAPSHOT, "Memory snapshot")                                          \
    _(AG_DIFF,     "Trace diff")

enum action_group {
#define AG_ENUM(id, title) id,
    ACTION_GROUP_INFO(AG_ENUM)
#undef AG_ENUM
    AG__COUNT
};

/* id, script/help name, group, help text */
#define ACTION_INFO(_)                                                                         \
    _(A_NONE,           "none",           AG_GLOBAL,   "Do nothing")                           \
    _(A_QUIT,           "quit",           AG_GLOBAL,   "Quit torchtop")                        \
    _(A_HELP,           "help",           AG_GLOBAL,   "Show this help")                       \
    _(A_CANCEL,         "cancel",         AG_GLOBAL,   "Close the overlay, clear the search")  \
    _(A_REDRAW,         "redraw",         AG_GLOBAL,   "Redraw the screen")                    \
    _(A_FOCUS_NEXT,     "focus-next",     AG_GLOBAL,   "Focus the next pane")                  \
    _(A_FOCUS_PREV,     "focus-prev",     AG_GLOBAL,   "Focus the previous pane")              \
    _(A_FOCUS_TABLE,    "focus-table",    AG_GLOBAL,   "Focus the op table")                   \
    _(A_FOCUS_TREE,     "focus-tree",     AG_GLOBAL,   "Focus the call tree")                  \
    _(A_FOCUS_TIMELINE, "focus-timeline", AG_GLOBAL,   "Focus the timeline")                   \
    _(A_FOCUS_DETAIL,   "focus-detail",   AG_GLOBAL,   "Focus the detail pane")                \
    _(A_MAXIMIZE,       "maximize",       AG_GLOBAL,   "Maximize the focused pane (again: restore)") \
    _(A_BACK,           "back",           AG_GLOBAL,   "Go back (undo the last drill-in)")     \
    _(A_KERNEL_NAMES,   "kernel-names",   AG_GLOBAL,   "Kernel names in tables and the tree: simplified or full (demangled)") \
    _(A_EXPORT,         "export",         AG_GLOBAL,   "Export the selected subtree or the timeline window as a Kineto JSON trace") \
    _(A_CRITPATH,       "critical-path",  AG_GLOBAL,   "Highlight the critical path (timeline) and show its time per row (crit µs); again: hide") \
    _(A_WHATIF,         "what-if",        AG_GLOBAL,   "What-if: how much the steps' critical path shortens were the selected op or kernel 2x faster") \
    _(A_STEPS,          "steps",          AG_GLOBAL,   "Step list (or the serving iterations): Enter shows every view for that step alone (Esc: the whole trace)") \
    _(A_FINDINGS,       "findings",       AG_GLOBAL,   "Findings, largest saving on the critical path first; Enter: its evidence, Backspace: back") \
    _(A_MOVE_UP,        "move-up",        AG_MOVE,     "Move up")                              \
    _(A_MOVE_DOWN,      "move-down",      AG_MOVE,     "Move down")                            \
    _(A_MOVE_LEFT,      "move-left",      AG_MOVE,     "Tree: collapse or go to parent; timeline: earlier; else back") \
    _(A_MOVE_RIGHT,     "move-right",     AG_MOVE,     "Tree: expand or go to first child; timeline: later") \
    _(A_PAGE_UP,        "page-up",        AG_MOVE,     "Move one page up")                     \
    _(A_PAGE_DOWN,      "page-down",      AG_MOVE,     "Move one page down")                   \
    _(A_MOVE_FIRST,     "move-first",     AG_MOVE,     "Go to the first line")                 \
    _(A_MOVE_LAST,      "move-last",      AG_MOVE,     "Go to the last line")                  \
    _(A_ACTIVATE,       "enter",          AG_MOVE,     "Drill in: table row -> its instances in the tree; tree: open/close; detail: select the event a line names") \
    _(A_SEARCH,         "search",         AG_SEARCH,   "Search names in the focused pane (substring; regex when it has regex characters)") \
    _(A_SEARCH_NEXT,    "search-next",    AG_SEARCH,   "Next match")                           \
    _(A_SEARCH_PREV,    "search-prev",    AG_SEARCH,   "Previous match")                       \
    _(A_FILTER,         "filter",         AG_SEARCH,   "Filter the table and tree by name")    \
    _(A_FILTER_CLEAR,   "filter-clear",   AG_SEARCH,   "Clear the filter")                     \
    _(A_VIEW_NEXT,      "view-next",      AG_TABLE,    "Next table view (all of them under Table views)") \
    _(A_VIEW_PREV,      "view-prev",      AG_TABLE,    "Previous table view")                  \
    _(A_SORT_MENU,      "sort-menu",      AG_TABLE,    "Choose the sort column from a menu")   \
    _(A_SORT_REVERSE,   "sort-reverse",   AG_TABLE,    "Reverse the sort order")               \
    _(A_SORT_NEXT,      "sort-next",      AG_TABLE,    "Sort by the next column")              \
    _(A_SORT_PREV,      "sort-prev",      AG_TABLE,    "Sort by the previous column")          \
    _(A_SORT_1,         "sort-1",         AG_TABLE,    "Sort by column 1")                     \
    _(A_SORT_2,         "sort-2",         AG_TABLE,    "Sort by column 2")                     \
    _(A_SORT_3,         "sort-3",         AG_TABLE,    "Sort by column 3")                     \
    _(A_SORT_4,         "sort-4",         AG_TABLE,    "Sort by column 4")                     \
    _(A_SORT_5,         "sort-5",         AG_TABLE,    "Sort by column 5")                     \
    _(A_SORT_6,         "sort-6",         AG_TABLE,    "Sort by column 6")                     \
    _(A_SORT_7,         "sort-7",         AG_TABLE,    "Sort by column 7")                     \
    _(A_SORT_8,         "sort-8",         AG_TABLE,    "Sort by column 8")                     \
    _(A_SORT_9,         "sort-9",         AG_TABLE,    "Sort by column 9")                     \
    _(A_ALL_COLUMNS,    "all-columns",    AG_TABLE,    "Show or hide the detail columns")      \
    _(A_SCROLL_LEFT,    "scroll-left",    AG_TABLE,    "Scroll the columns left")              \
    _(A_SCROLL_RIGHT,   "scroll-right",   AG_TABLE,    "Scroll the columns right")             \
    _(A_ROOFLINE,       "roofline",       AG_TABLE,    "Roofline view; again: choose its category (GEMM, SDPA_fwd, ...)") \
    _(A_TOGGLE,         "toggle",         AG_TREE,     "Open or close the node")               \
    _(A_EXPAND_ALL,     "expand-all",     AG_TREE,     "Open everything below the node")       \
    _(A_COLLAPSE_ALL,   "collapse-all",   AG_TREE,     "Close every node")                     \
    _(A_HOT_PATH,       "hot-path",       AG_TREE,     "Open the hot path: follow the child with the most GPU time") \
    _(A_PARENT,         "parent",         AG_TREE,     "Go to the parent node")                \
    _(A_HIDE_PYTHON,    "hide-python",    AG_TREE,     "Hide or show Python frames")           \
    _(A_GROUP,          "group",          AG_TREE,     "Group identical siblings (aten::mm x126)") \
    _(A_SCOPE_SUBTREE,  "scope-subtree",  AG_TREE,     "Every view for the subtrees of the ops named as the selected one (--match; Esc: the whole trace)") \
    _(A_EXPORT_SUBTREE, "export-subtree", AG_TREE,     "Export the selected node's subtree (with its GPU work) as a Kineto JSON trace") \
    _(A_SELECT_EVENT,   "select-event",   AG_TIMELINE, "Select the event under the cursor in the call tree") \
    _(A_ZOOM_IN,        "zoom-in",        AG_TIMELINE, "Zoom in around the cursor")            \
    _(A_ZOOM_OUT,       "zoom-out",       AG_TIMELINE, "Zoom out")                             \
    _(A_ZOOM_FIT,       "zoom-fit",       AG_TIMELINE, "Show the whole trace")                 \
    _(A_ZOOM_SELECTION, "zoom-selection", AG_TIMELINE, "Jump to and fit the selected event")   \
    _(A_PAN_LEFT,       "pan-left",       AG_TIMELINE, "Pan left half a screen")               \
    _(A_PAN_RIGHT,      "pan-right",      AG_TIMELINE, "Pan right half a screen")              \
    _(A_EVENT_PREV,     "event-prev",     AG_TIMELINE, "Previous event on the lane")           \
    _(A_EVENT_NEXT,     "event-next",     AG_TIMELINE, "Next event on the lane")               \
    _(A_MARK,           "mark",           AG_TIMELINE, "Mark a range's start at the cursor; again at its end: every view then covers the range (Esc: the whole trace)") \
    _(A_EXPORT_WINDOW,  "export-window",  AG_TIMELINE, "Export the visible time window as a Kineto JSON trace") \
    _(A_TRACEBACK,      "traceback",      AG_TRACEBACK, "Show the traceback of the selection (again: its details)") \
    _(A_SOURCE,         "source",         AG_TRACEBACK, "Show the source file of the frame at its line") \
    _(A_ALL_FRAMES,     "all-frames",     AG_TRACEBACK, "Show or hide the frames memory_viz hides (unwinder, interpreter)") \
    _(A_DEVICE_NEXT,    "device-next",    AG_SNAPSHOT, "Show the memory of the next device")   \
    _(A_PEAK,           "peak",           AG_SNAPSHOT, "Move the memory cursor to the peak of allocated memory") \
    _(A_OOM_NEXT,       "oom-next",       AG_SNAPSHOT, "Move the memory cursor to the next out-of-memory event") \
    _(A_SITE_DEPTH,     "site-depth",     AG_SNAPSHOT, "Group allocation sites by their top 1, 2, 3, 5 frames or all") \
    _(A_DIFF_OPS,       "diff-ops",       AG_DIFF,     "Diff: the per-name table (HTA's compare_traces)") \
    _(A_DIFF_TREE,      "diff-tree",      AG_DIFF,     "Diff: the merged call tree") \
    _(A_DIFF_LCA,       "diff-lca",       AG_DIFF,     "Diff: GPU work under the lowest matched ancestor") \
    _(A_DIFF_ARGS,      "diff-unique-args", AG_DIFF,   "Diff: GPU time by op and input shapes") \
    _(A_DIFF_ROOFLINE,  "diff-roofline",  AG_DIFF,     "Diff: the roofline sheets joined") \
    _(A_DIFF_DETAIL,    "diff-detail",    AG_DIFF,     "Diff: both sides' detail of the selection, the whole body (again, Esc or Backspace: back)") \
    _(A_DIFF_NEXT,      "diff-next",      AG_DIFF,     "Diff: the next of its views (ops, tree, lca, unique-args, roofline, sides)") \
    _(A_DIFF_PREV,      "diff-prev",      AG_DIFF,     "Diff: the previous of its views")

enum action {
#define A_ENUM(id, name, group, help) id,
    ACTION_INFO(A_ENUM)
#undef A_ENUM
    A__COUNT
};
/* clang-format on */

/* Script name of an action ("move-down"). */
const char *action_name(enum action a);
const char *action_help(enum action a);
enum action_group action_group(enum action a);
const char *action_group_title(enum action_group g);
/* Action by script name, or A_NONE. */
enum action action_find(const char *name);

#endif
