#pragma once
// The one seam to D-Bus, for iio-sensor-proxy's accelerometer (net.hadess.SensorProxy on the
// system bus). It speaks through libsystemd's sd-bus, loaded with dlopen on first use and not
// linked: PhotoCapture's clients gain no build or link dependency, and a machine without
// libsystemd simply has no rotation source.
#include <stddef.h>

/// A connection to the bus, watching the sensor proxy. One thread at a time may use it, except
/// pc_sensor_proxy_wake, which any thread may call.
typedef struct pc_sensor_proxy pc_sensor_proxy;

/// What failed: sd-bus's negative errno (0 when the failure is a D-Bus error or a missing
/// library), and the D-Bus error's name and message (or dlerror's text, in `message`); for
/// pc_sensor_proxy_open, the step that failed ("connecting", "AddMatch"; empty otherwise).
typedef struct {
    int code;
    char name[128];
    char message[256];
    char step[32];
} pc_sensor_proxy_error;

/// What pc_sensor_proxy_wait saw, as bits.
enum {
    /// The proxy's properties changed (a PropertiesChanged signal for its interface).
    PC_SENSOR_PROXY_CHANGED = 1,
    /// The proxy's bus name got a new owner or lost it (iio-sensor-proxy started or stopped):
    /// claims are lost with the old owner.
    PC_SENSOR_PROXY_OWNER_CHANGED = 2,
    /// pc_sensor_proxy_wake was called.
    PC_SENSOR_PROXY_WOKEN = 4,
};

/// Loads libsystemd ("libsystemd.so.0") once per process, thread-safe. Returns 0 when it is
/// usable; otherwise -1 and the reason in `error->message`.
int pc_sensor_proxy_load(pc_sensor_proxy_error *error);

/// Connects to the bus at `address` (a D-Bus address such as "unix:path=/run/dbus/sock"), or to
/// the system bus when NULL (DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket), and
/// subscribes to the proxy's property changes and to its name's owner. Connecting (with the
/// bus's authentication and Hello) and each call on the connection, AddMatch included, wait at
/// most `timeout_ms`; a step that ran out fails with -ETIMEDOUT. Blocks for that long at most:
/// call it off any thread that must stay responsive. Returns NULL with `error` filled on failure.
pc_sensor_proxy *pc_sensor_proxy_open(const char *address, int timeout_ms, pc_sensor_proxy_error *error);

/// Reads HasAccelerometer and AccelerometerOrientation (GetAll) into `has_accelerometer` (0 or
/// 1) and `orientation` (NUL-terminated, cut to `size`). Returns 0, or -1 with `error` filled.
int pc_sensor_proxy_read(pc_sensor_proxy *proxy, int *has_accelerometer, char *orientation, size_t size,
                         pc_sensor_proxy_error *error);

/// Calls ClaimAccelerometer: the proxy reads the accelerometer, and sends orientation changes,
/// while a client claims it. Returns 0, or -1 with `error` filled.
int pc_sensor_proxy_claim(pc_sensor_proxy *proxy, pc_sensor_proxy_error *error);

/// Waits up to `timeout_ms` (-1: without a limit) for a message or pc_sensor_proxy_wake, handles
/// what arrived, and returns the PC_SENSOR_PROXY_* bits seen (0 on timeout), or -1 with `error`
/// filled when the connection failed.
int pc_sensor_proxy_wait(pc_sensor_proxy *proxy, int timeout_ms, pc_sensor_proxy_error *error);

/// Ends the current or next pc_sensor_proxy_wait early. Safe from any thread.
void pc_sensor_proxy_wake(pc_sensor_proxy *proxy);

/// Releases the accelerometer if it was claimed (ReleaseAccelerometer, not waited for longer
/// than the connection's timeout) and closes the connection.
void pc_sensor_proxy_close(pc_sensor_proxy *proxy);
