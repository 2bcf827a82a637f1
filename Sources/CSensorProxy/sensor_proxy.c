#include "csensorproxy.h"

#include <CLibraryLoading.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

// sd-bus's ABI, declared here because libsystemd is loaded at run time: its headers
// (libsystemd-dev) are not needed to build photocap. These functions and sd_bus_error are
// unchanged since sd-bus became public (systemd 221).

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;

/// struct sd_bus_error.
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;

typedef int (*sd_bus_message_handler)(sd_bus_message *message, void *user_data, sd_bus_error *error);

/// libsystemd's functions, filled by pc_library_load.
static struct {
    int (*open_system)(sd_bus **bus);
    int (*new_bus)(sd_bus **bus);
    int (*set_address)(sd_bus *bus, const char *address);
    int (*set_bus_client)(sd_bus *bus, int client);
    int (*start)(sd_bus *bus);
    int (*is_ready)(sd_bus *bus);
    int (*set_method_call_timeout)(sd_bus *bus, uint64_t usec);
    void (*close)(sd_bus *bus);
    sd_bus *(*unref)(sd_bus *bus);
    int (*get_fd)(sd_bus *bus);
    int (*get_events)(sd_bus *bus);
    int (*get_timeout)(sd_bus *bus, uint64_t *usec);
    int (*process)(sd_bus *bus, sd_bus_message **message);
    int (*add_match)(sd_bus *bus, sd_bus_slot **slot, const char *rule, sd_bus_message_handler handler, void *user_data);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *slot);
    int (*new_method_call)(sd_bus *bus, sd_bus_message **message, const char *destination, const char *path,
                           const char *interface, const char *member);
    int (*append)(sd_bus_message *message, const char *types, ...);
    int (*call)(sd_bus *bus, sd_bus_message *message, uint64_t usec, sd_bus_error *error, sd_bus_message **reply);
    sd_bus_message *(*message_unref)(sd_bus_message *message);
    int (*enter_container)(sd_bus_message *message, char type, const char *contents);
    int (*exit_container)(sd_bus_message *message);
    int (*read)(sd_bus_message *message, const char *types, ...);
    int (*skip)(sd_bus_message *message, const char *types);
    void (*error_free)(sd_bus_error *error);
} bus;

/// The functions in the order of their fields in `bus`, without the "sd_bus_" prefix.
static const char *const function_names[] = {
    "open_system", "new", "set_address", "set_bus_client", "start", "is_ready", "set_method_call_timeout", "close",
    "unref", "get_fd", "get_events",
    "get_timeout", "process", "add_match", "slot_unref", "message_new_method_call", "message_append", "call",
    "message_unref", "message_enter_container", "message_exit_container", "message_read", "message_skip",
    "error_free",
};
enum { function_count = sizeof function_names / sizeof function_names[0] };
_Static_assert(sizeof bus == function_count * sizeof(void *), "a name for every function field, in order");
static pc_library library = {"libsystemd.so.0", "sd_bus_", function_names, function_count, (void **)&bus};

static const char *const service = "net.hadess.SensorProxy";
static const char *const object = "/net/hadess/SensorProxy";
static const char *const interface = "net.hadess.SensorProxy";
static const char *const properties = "org.freedesktop.DBus.Properties";

struct pc_sensor_proxy {
    sd_bus *bus;
    sd_bus_slot *changes;
    sd_bus_slot *owner;
    /// Written by pc_sensor_proxy_wake, polled beside the bus.
    int wake_fd;
    uint64_t timeout_usec;
    int claimed;
    /// PC_SENSOR_PROXY_* bits set by the match handlers during a wait.
    int seen;
};

int pc_sensor_proxy_load(pc_sensor_proxy_error *error) {
    memset(error, 0, sizeof *error);
    return pc_library_load(&library, error->message, sizeof error->message) != NULL ? 0 : -1;
}

/// Fills `error` from sd-bus's result `code` (negative errno) and its D-Bus error, if any.
static int fail(pc_sensor_proxy_error *error, int code, const sd_bus_error *bus_error) {
    error->code = bus_error != NULL && bus_error->name != NULL ? 0 : code;
    snprintf(error->name, sizeof error->name, "%s", bus_error != NULL && bus_error->name != NULL ? bus_error->name : "");
    snprintf(error->message, sizeof error->message, "%s",
             bus_error != NULL && bus_error->message != NULL ? bus_error->message : strerror(-code));
    return -1;
}

static int on_properties_changed(sd_bus_message *message, void *user_data, sd_bus_error *error) {
    (void)error;
    pc_sensor_proxy *proxy = user_data;
    // The signal names the interface whose properties changed; only the proxy's own matter.
    const char *changed = NULL;
    if (bus.read(message, "s", &changed) >= 0 && changed != NULL && strcmp(changed, interface) == 0) {
        proxy->seen |= PC_SENSOR_PROXY_CHANGED;
    }
    return 0;
}

static int on_owner_changed(sd_bus_message *message, void *user_data, sd_bus_error *error) {
    (void)message;
    (void)error;
    pc_sensor_proxy *proxy = user_data;
    proxy->seen |= PC_SENSOR_PROXY_OWNER_CHANGED;
    // The old owner took our claim with it.
    proxy->claimed = 0;
    return 0;
}

static sd_bus *connect_bus(const char *address, pc_sensor_proxy_error *error) {
    sd_bus *connection = NULL;
    int result;
    if (address == NULL) {
        result = bus.open_system(&connection);
        if (result < 0) {
            fail(error, result, NULL);
            return NULL;
        }
        return connection;
    }
    result = bus.new_bus(&connection);
    if (result >= 0) result = bus.set_address(connection, address);
    if (result >= 0) result = bus.set_bus_client(connection, 1);
    if (result >= 0) result = bus.start(connection);
    if (result < 0) {
        if (connection != NULL) bus.unref(connection);
        fail(error, result, NULL);
        return NULL;
    }
    return connection;
}

static int64_t now_usec(void);

/// Drives the connection until the bus has authenticated it and answered Hello, at most until
/// `deadline` (monotonic µs): sd-bus's own wait for this is 90 s, and a bus that accepted and
/// never answers would hold the caller that long.
static int await_ready(pc_sensor_proxy *proxy, int64_t deadline, pc_sensor_proxy_error *error) {
    for (;;) {
        int result;
        while ((result = bus.process(proxy->bus, NULL)) > 0) {
        }
        if (result < 0) return fail(error, result, NULL);
        result = bus.is_ready(proxy->bus);
        if (result > 0) return 0;
        if (result < 0) return fail(error, result, NULL);
        int64_t left = deadline - now_usec();
        if (left <= 0) {
            snprintf(error->step, sizeof error->step, "%s", "connecting");
            return fail(error, -ETIMEDOUT, NULL);
        }
        int events = bus.get_events(proxy->bus);
        if (events < 0) return fail(error, events, NULL);
        struct pollfd descriptor = {.fd = bus.get_fd(proxy->bus), .events = (short)events};
        if (poll(&descriptor, 1, (int)((left + 999) / 1000)) < 0 && errno != EINTR) return fail(error, -errno, NULL);
    }
}

pc_sensor_proxy *pc_sensor_proxy_open(const char *address, int timeout_ms, pc_sensor_proxy_error *error) {
    if (pc_sensor_proxy_load(error) != 0) return NULL;
    pc_sensor_proxy *proxy = calloc(1, sizeof *proxy);
    if (proxy == NULL) {
        fail(error, -ENOMEM, NULL);
        return NULL;
    }
    proxy->timeout_usec = (uint64_t)(timeout_ms > 0 ? timeout_ms : 1) * 1000;
    proxy->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (proxy->wake_fd < 0) {
        fail(error, -errno, NULL);
        free(proxy);
        return NULL;
    }
    int64_t deadline = now_usec() + (int64_t)proxy->timeout_usec;
    proxy->bus = connect_bus(address, error);
    if (proxy->bus == NULL || await_ready(proxy, deadline, error) != 0) {
        pc_sensor_proxy_close(proxy);
        return NULL;
    }
    // AddMatch is a method call of its own, answered by the bus: bounded like the others.
    int result = bus.set_method_call_timeout(proxy->bus, proxy->timeout_usec);
    if (result < 0) {
        fail(error, result, NULL);
        pc_sensor_proxy_close(proxy);
        return NULL;
    }
    // Not filtered by sender: iio-sensor-proxy sends its changes to each claiming client, and a
    // signal's sender is a unique name that a well-known name in a rule does not match locally.
    // A change only prompts a read from the service itself.
    char changes_rule[256];
    snprintf(changes_rule, sizeof changes_rule,
             "type='signal',path='%s',interface='%s',member='PropertiesChanged',arg0='%s'", object, properties, interface);
    char owner_rule[256];
    snprintf(owner_rule, sizeof owner_rule,
             "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
             "member='NameOwnerChanged',arg0='%s'", service);
    result = bus.add_match(proxy->bus, &proxy->changes, changes_rule, on_properties_changed, proxy);
    if (result >= 0) result = bus.add_match(proxy->bus, &proxy->owner, owner_rule, on_owner_changed, proxy);
    if (result < 0) {
        snprintf(error->step, sizeof error->step, "%s", "AddMatch");
        fail(error, result, NULL);
        pc_sensor_proxy_close(proxy);
        return NULL;
    }
    return proxy;
}

/// Calls `member` of `target_interface` on the proxy's object, with "s" argument `argument` when
/// not NULL; the reply goes to `reply` (NULL: dropped).
static int call(pc_sensor_proxy *proxy, const char *target_interface, const char *member, const char *argument,
                sd_bus_message **reply, pc_sensor_proxy_error *error) {
    sd_bus_message *message = NULL;
    sd_bus_error bus_error = {NULL, NULL, 0};
    sd_bus_message *answer = NULL;
    int result = bus.new_method_call(proxy->bus, &message, service, object, target_interface, member);
    if (result >= 0 && argument != NULL) result = bus.append(message, "s", argument);
    if (result >= 0) result = bus.call(proxy->bus, message, proxy->timeout_usec, &bus_error, &answer);
    if (message != NULL) bus.message_unref(message);
    if (result < 0) {
        fail(error, result, &bus_error);
        bus.error_free(&bus_error);
        return -1;
    }
    if (reply != NULL) {
        *reply = answer;
    } else {
        bus.message_unref(answer);
    }
    return 0;
}

/// Reads one a{sv} entry's variant into the outputs when it is one of the two properties.
static int read_entry(sd_bus_message *reply, int *has_accelerometer, char *orientation, size_t size) {
    const char *name = NULL;
    int result = bus.read(reply, "s", &name);
    if (result < 0) return result;
    if (strcmp(name, "HasAccelerometer") == 0) {
        int value = 0;
        result = bus.enter_container(reply, 'v', "b");
        if (result >= 0) result = bus.read(reply, "b", &value);
        if (result >= 0) result = bus.exit_container(reply);
        *has_accelerometer = value != 0;
    } else if (strcmp(name, "AccelerometerOrientation") == 0) {
        const char *value = NULL;
        result = bus.enter_container(reply, 'v', "s");
        if (result >= 0) result = bus.read(reply, "s", &value);
        if (result >= 0) result = bus.exit_container(reply);
        if (result >= 0) snprintf(orientation, size, "%s", value);
    } else {
        result = bus.skip(reply, "v");
    }
    return result;
}

int pc_sensor_proxy_read(pc_sensor_proxy *proxy, int *has_accelerometer, char *orientation, size_t size,
                         pc_sensor_proxy_error *error) {
    memset(error, 0, sizeof *error);
    *has_accelerometer = 0;
    if (size > 0) orientation[0] = '\0';
    sd_bus_message *reply = NULL;
    if (call(proxy, properties, "GetAll", interface, &reply, error) != 0) return -1;
    int result = bus.enter_container(reply, 'a', "{sv}");
    while (result > 0) {
        result = bus.enter_container(reply, 'e', "sv");
        if (result <= 0) break;
        result = read_entry(reply, has_accelerometer, orientation, size);
        if (result >= 0) result = bus.exit_container(reply);
    }
    if (result >= 0) result = bus.exit_container(reply);
    bus.message_unref(reply);
    return result < 0 ? fail(error, result, NULL) : 0;
}

int pc_sensor_proxy_claim(pc_sensor_proxy *proxy, pc_sensor_proxy_error *error) {
    memset(error, 0, sizeof *error);
    if (call(proxy, interface, "ClaimAccelerometer", NULL, NULL, error) != 0) return -1;
    proxy->claimed = 1;
    return 0;
}

static int64_t now_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/// Handles every message that has arrived.
static int process_all(pc_sensor_proxy *proxy, pc_sensor_proxy_error *error) {
    int result;
    while ((result = bus.process(proxy->bus, NULL)) > 0) {
    }
    return result < 0 ? fail(error, result, NULL) : 0;
}

int pc_sensor_proxy_wait(pc_sensor_proxy *proxy, int timeout_ms, pc_sensor_proxy_error *error) {
    memset(error, 0, sizeof *error);
    proxy->seen = 0;
    // Messages read while a call waited for its reply are queued: handle them before sleeping.
    if (process_all(proxy, error) != 0) return -1;
    if (proxy->seen != 0) return proxy->seen;
    int events = bus.get_events(proxy->bus);
    if (events < 0) return fail(error, events, NULL);
    int timeout = timeout_ms;
    uint64_t until = 0;
    if (bus.get_timeout(proxy->bus, &until) >= 0 && until != UINT64_MAX) {
        int64_t left = ((int64_t)until - now_usec() + 999) / 1000;
        int bus_timeout = left < 0 ? 0 : (left > 1000000 ? 1000000 : (int)left);
        if (timeout < 0 || bus_timeout < timeout) timeout = bus_timeout;
    }
    struct pollfd descriptors[2] = {
        {.fd = bus.get_fd(proxy->bus), .events = (short)events},
        {.fd = proxy->wake_fd, .events = POLLIN},
    };
    int ready = poll(descriptors, 2, timeout);
    if (ready < 0 && errno != EINTR) return fail(error, -errno, NULL);
    if (ready > 0 && (descriptors[1].revents & POLLIN)) {
        uint64_t count;
        if (read(proxy->wake_fd, &count, sizeof count) < 0) {
            // Non-blocking: nothing to drain is not a failure.
        }
        proxy->seen |= PC_SENSOR_PROXY_WOKEN;
    }
    if (process_all(proxy, error) != 0) return -1;
    return proxy->seen;
}

void pc_sensor_proxy_wake(pc_sensor_proxy *proxy) {
    uint64_t one = 1;
    if (write(proxy->wake_fd, &one, sizeof one) < 0) {
        // The counter is full only after 2^64 - 2 wakes: the wait wakes all the same.
    }
}

void pc_sensor_proxy_close(pc_sensor_proxy *proxy) {
    if (proxy == NULL) return;
    if (proxy->bus != NULL) {
        if (proxy->claimed) {
            pc_sensor_proxy_error ignored;
            call(proxy, interface, "ReleaseAccelerometer", NULL, NULL, &ignored);
        }
        if (proxy->changes != NULL) bus.slot_unref(proxy->changes);
        if (proxy->owner != NULL) bus.slot_unref(proxy->owner);
        // Not flushed: a bus that never reads would hold the close as long as sd-bus lets it.
        bus.close(proxy->bus);
        bus.unref(proxy->bus);
    }
    if (proxy->wake_fd >= 0) close(proxy->wake_fd);
    free(proxy);
}
