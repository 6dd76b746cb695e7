#pragma once
#include <errno.h>
#include <gpiod.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// libgpiod 1.6 (Debian 12, Raspberry Pi OS 12) and 2.x (Debian 13, Raspberry Pi OS 13) are two different
// APIs under one pkg-config name, and Swift cannot test a C macro to tell them apart. So this shim picks
// one at compile time (only 1.6 defines GPIOD_LINE_BULK_MAX_LINES) and gives LibGPIOD the few calls it
// makes, the same on both: open a chip, describe it, request one line for both-edge events, read them.

/// One edge event: the kernel's CLOCK_MONOTONIC timestamp, and whether the line became active.
typedef struct shim_gpiod_edge {
    int64_t seconds;
    int64_t nanoseconds;
    bool rising;
} shim_gpiod_edge;

/// The bias asked for a line (the two APIs number theirs differently).
typedef enum shim_gpiod_bias {
    SHIM_GPIOD_BIAS_AS_IS = 0,
    SHIM_GPIOD_BIAS_DISABLED = 1,
    SHIM_GPIOD_BIAS_PULL_UP = 2,
    SHIM_GPIOD_BIAS_PULL_DOWN = 3,
} shim_gpiod_bias;

enum { SHIM_GPIOD_EVENT_CAPACITY = 16 };

#ifdef GPIOD_LINE_BULK_MAX_LINES  // ---------------------------------------------------------- libgpiod 1.6

/// A requested line.
typedef struct shim_gpiod_request {
    struct gpiod_line *line;
} shim_gpiod_request;

static inline int shim_gpiod_api(void) { return 1; }
static inline const char *shim_gpiod_version(void) { return gpiod_version_string(); }

/// Copies the chip's name and label and gives its line count; 0 on success.
static inline int shim_gpiod_chip_describe(struct gpiod_chip *chip, char *name, size_t name_size, char *label,
                                           size_t label_size, unsigned int *lines) {
    snprintf(name, name_size, "%s", gpiod_chip_name(chip));
    snprintf(label, label_size, "%s", gpiod_chip_label(chip));
    *lines = gpiod_chip_num_lines(chip);
    return 0;
}

/// Requests line `offset` for both-edge events; NULL with errno set on failure.
static inline shim_gpiod_request *shim_gpiod_request_edges(struct gpiod_chip *chip, unsigned int offset,
                                                           const char *consumer, bool active_low,
                                                           shim_gpiod_bias bias) {
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line) return NULL;
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (bias) {
    case SHIM_GPIOD_BIAS_AS_IS: break;
    case SHIM_GPIOD_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case SHIM_GPIOD_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case SHIM_GPIOD_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    }
    if (gpiod_line_request_both_edges_events_flags(line, consumer, flags) != 0) return NULL;
    shim_gpiod_request *request = calloc(1, sizeof *request);
    if (!request) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    request->line = line;
    return request;
}

static inline int shim_gpiod_request_fd(shim_gpiod_request *request) { return gpiod_line_event_get_fd(request->line); }

/// The line's logical value now (1: active, after active-low), or -1 with errno.
static inline int shim_gpiod_get_value(shim_gpiod_request *request) { return gpiod_line_get_value(request->line); }

/// Reads up to `capacity` pending events (at most SHIM_GPIOD_EVENT_CAPACITY); the count, or -1 with errno.
static inline int shim_gpiod_read_edges(shim_gpiod_request *request, shim_gpiod_edge *out, int capacity) {
    struct gpiod_line_event events[SHIM_GPIOD_EVENT_CAPACITY];
    if (capacity > SHIM_GPIOD_EVENT_CAPACITY) capacity = SHIM_GPIOD_EVENT_CAPACITY;
    int count = gpiod_line_event_read_multiple(request->line, events, (unsigned int)capacity);
    for (int i = 0; i < count; i++) {
        out[i].seconds = events[i].ts.tv_sec;
        out[i].nanoseconds = events[i].ts.tv_nsec;
        out[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return count;
}

static inline void shim_gpiod_release(shim_gpiod_request *request) {
    gpiod_line_release(request->line);
    free(request);
}

/// Copies the name of the line's current user into `out` (empty when unused or unknown).
static inline void shim_gpiod_line_consumer(struct gpiod_chip *chip, unsigned int offset, char *out, size_t size) {
    out[0] = 0;
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line || gpiod_line_update(line) != 0) return;
    const char *user = gpiod_line_consumer(line);
    if (user) snprintf(out, size, "%s", user);
}

#else  // ------------------------------------------------------------------------------------------ libgpiod 2.x

/// A line request and its event buffer.
typedef struct shim_gpiod_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
} shim_gpiod_request;

static inline int shim_gpiod_api(void) { return 2; }
static inline const char *shim_gpiod_version(void) { return gpiod_api_version(); }

static inline int shim_gpiod_chip_describe(struct gpiod_chip *chip, char *name, size_t name_size, char *label,
                                           size_t label_size, unsigned int *lines) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) return -1;
    snprintf(name, name_size, "%s", gpiod_chip_info_get_name(info));
    snprintf(label, label_size, "%s", gpiod_chip_info_get_label(info));
    *lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
}

static inline shim_gpiod_request *shim_gpiod_request_edges(struct gpiod_chip *chip, unsigned int offset,
                                                           const char *consumer, bool active_low,
                                                           shim_gpiod_bias bias) {
    static const enum gpiod_line_bias biases[] = {
        [SHIM_GPIOD_BIAS_AS_IS] = GPIOD_LINE_BIAS_AS_IS,
        [SHIM_GPIOD_BIAS_DISABLED] = GPIOD_LINE_BIAS_DISABLED,
        [SHIM_GPIOD_BIAS_PULL_UP] = GPIOD_LINE_BIAS_PULL_UP,
        [SHIM_GPIOD_BIAS_PULL_DOWN] = GPIOD_LINE_BIAS_PULL_DOWN,
    };
    shim_gpiod_request *out = calloc(1, sizeof *out);
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *lines = gpiod_line_config_new();
    struct gpiod_request_config *config = gpiod_request_config_new();
    struct gpiod_edge_event_buffer *events = gpiod_edge_event_buffer_new(SHIM_GPIOD_EVENT_CAPACITY);
    int error = ENOMEM;
    struct gpiod_line_request *request = NULL;
    if (out && settings && lines && config && events) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_bias(settings, biases[bias]);
        gpiod_line_settings_set_active_low(settings, active_low);
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        gpiod_request_config_set_consumer(config, consumer);
        if (gpiod_line_config_add_line_settings(lines, &offset, 1, settings) == 0)
            request = gpiod_chip_request_lines(chip, config, lines);
        error = errno;
    }
    gpiod_line_settings_free(settings);
    gpiod_line_config_free(lines);
    gpiod_request_config_free(config);
    if (!request) {
        gpiod_edge_event_buffer_free(events);
        free(out);
        errno = error;
        return NULL;
    }
    out->request = request;
    out->events = events;
    out->offset = offset;
    return out;
}

static inline int shim_gpiod_request_fd(shim_gpiod_request *request) {
    return gpiod_line_request_get_fd(request->request);
}

static inline int shim_gpiod_get_value(shim_gpiod_request *request) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offset);
    return value == GPIOD_LINE_VALUE_ERROR ? -1 : value == GPIOD_LINE_VALUE_ACTIVE;
}

static inline int shim_gpiod_read_edges(shim_gpiod_request *request, shim_gpiod_edge *out, int capacity) {
    if (capacity > SHIM_GPIOD_EVENT_CAPACITY) capacity = SHIM_GPIOD_EVENT_CAPACITY;
    int count = gpiod_line_request_read_edge_events(request->request, request->events, (size_t)capacity);
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->events, (unsigned long)i);
        uint64_t ns = gpiod_edge_event_get_timestamp_ns(event);
        out[i].seconds = (int64_t)(ns / 1000000000u);
        out[i].nanoseconds = (int64_t)(ns % 1000000000u);
        out[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return count;
}

static inline void shim_gpiod_release(shim_gpiod_request *request) {
    gpiod_line_request_release(request->request);
    gpiod_edge_event_buffer_free(request->events);
    free(request);
}

static inline void shim_gpiod_line_consumer(struct gpiod_chip *chip, unsigned int offset, char *out, size_t size) {
    out[0] = 0;
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    if (!info) return;
    const char *user = gpiod_line_info_get_consumer(info);
    if (user) snprintf(out, size, "%s", user);
    gpiod_line_info_free(info);
}

#endif
