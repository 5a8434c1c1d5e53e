#define SERVET_IMPLEMENTATION
#include "servet.h"
