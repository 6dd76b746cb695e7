#pragma once
#include <vorbis/vorbisfile.h>
