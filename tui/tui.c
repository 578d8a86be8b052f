/* The interactive explorer (placeholder until the explorer lands). */
#include "config.h"

#include "tui/tui.h"
