#pragma once
#include <gpiod.h>
