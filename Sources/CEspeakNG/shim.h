#pragma once
#include <stdio.h>
#include <espeak-ng/espeak_ng.h>
