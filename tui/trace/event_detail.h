/* A trace event described in the detail pane, section by section. */
#ifndef TORCHTOP_TUI_EVENT_DETAIL_H
#define TORCHTOP_TUI_EVENT_DETAIL_H

#include <stdint.h>

struct view;
struct detail_out;

/* Every section of event ev (the registry), into d; nothing for IDX_NONE
 * or an event the trace does not have. */
void event_detail(struct detail_out *d, struct view *a, uint32_t ev);

/* A section of the event description. */
typedef void (*event_detail_fn)(struct detail_out *d, struct view *a, uint32_t ev);
struct event_detail_section {
    const char *title; /* heading; NULL = none */
    event_detail_fn fn;
};
extern const struct event_detail_section event_detail_sections[];

#endif
