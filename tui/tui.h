/* The interactive explorer. */
#ifndef TORCHTOP_TUI_TUI_H
#define TORCHTOP_TUI_TUI_H

#endif
