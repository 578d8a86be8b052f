/* Names, help texts and groups of the actions (tui/frame/actions.h). */
#include "config.h"

#include <string.h>

#include "core/base/common.h"
#include "tui/frame/actions.h"

static const struct {
    const char *name;
    const char *help;
    enum action_group group;
} infos[] = {
#define A_INFO(id, name, group, help) [id] = {name, help, group},
    ACTION_INFO(A_INFO)
#undef A_INFO
};

static const char *const group_titles[] = {
#define AG_TITLE(id, title) [id] = title,
    ACTION_GROUP_INFO(AG_TITLE)
#undef AG_TITLE
};

const char *action_name(enum action a)
{
    return (unsigned)a < A__COUNT ? infos[a].name : "?";
}

const char *action_help(enum action a)
{
    return (unsigned)a < A__COUNT ? infos[a].help : "";
}

enum action_group action_group(enum action a)
{
    return (unsigned)a < A__COUNT ? infos[a].group : AG_GLOBAL;
}

const char *action_group_title(enum action_group g)
{
    return (unsigned)g < AG__COUNT ? group_titles[g] : "?";
}

enum action action_find(const char *name)
{
    for (size_t i = 1; i < ARRAY_SIZE(infos); i++)
        if (strcmp(infos[i].name, name) == 0)
            return (enum action)i;
    return A_NONE;
}
