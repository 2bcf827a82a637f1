#include "cv4l2.h"
#include "retried_ioctl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

// A media device's graph, as MEDIA_IOC_G_TOPOLOGY gives it. Counts are bounded before the
// arrays are allocated: a driver's numbers are not trusted with memory.
struct topology {
    struct media_v2_entity *entities;
    struct media_v2_interface *interfaces;
    struct media_v2_pad *pads;
    struct media_v2_link *links;
    uint32_t entity_count, interface_count, pad_count, link_count;
};

enum { MAXIMUM_GRAPH_ELEMENTS = 4096, MAXIMUM_PIPELINE_DEPTH = 16 };

static int media_ioctl(int fd, unsigned long request, void *argument) { return pc_retried_ioctl(ioctl, fd, request, argument); }

static void topology_free(struct topology *graph) {
    free(graph->entities);
    free(graph->interfaces);
    free(graph->pads);
    free(graph->links);
}

static int topology_read(int media_fd, struct topology *graph) {
    memset(graph, 0, sizeof(*graph));
    struct media_v2_topology counts = {0};
    int result = media_ioctl(media_fd, MEDIA_IOC_G_TOPOLOGY, &counts);
    if (result < 0) return result;
    if (counts.num_entities > MAXIMUM_GRAPH_ELEMENTS || counts.num_interfaces > MAXIMUM_GRAPH_ELEMENTS ||
        counts.num_pads > MAXIMUM_GRAPH_ELEMENTS || counts.num_links > MAXIMUM_GRAPH_ELEMENTS)
        return -E2BIG;
    graph->entities = calloc(counts.num_entities + 1, sizeof(struct media_v2_entity));
    graph->interfaces = calloc(counts.num_interfaces + 1, sizeof(struct media_v2_interface));
    graph->pads = calloc(counts.num_pads + 1, sizeof(struct media_v2_pad));
    graph->links = calloc(counts.num_links + 1, sizeof(struct media_v2_link));
    if (!graph->entities || !graph->interfaces || !graph->pads || !graph->links) {
        topology_free(graph);
        return -ENOMEM;
    }
    struct media_v2_topology full = {
        .topology_version = counts.topology_version,
        .num_entities = counts.num_entities, .ptr_entities = (uintptr_t)graph->entities,
        .num_interfaces = counts.num_interfaces, .ptr_interfaces = (uintptr_t)graph->interfaces,
        .num_pads = counts.num_pads, .ptr_pads = (uintptr_t)graph->pads,
        .num_links = counts.num_links, .ptr_links = (uintptr_t)graph->links,
    };
    result = media_ioctl(media_fd, MEDIA_IOC_G_TOPOLOGY, &full);
    // The graph changed between the two calls (or grew): the caller sees no sensor.
    if (result == 0 && (full.num_entities > counts.num_entities || full.num_interfaces > counts.num_interfaces ||
                        full.num_pads > counts.num_pads || full.num_links > counts.num_links))
        result = -EAGAIN;
    if (result < 0) {
        topology_free(graph);
        return result;
    }
    graph->entity_count = full.num_entities;
    graph->interface_count = full.num_interfaces;
    graph->pad_count = full.num_pads;
    graph->link_count = full.num_links;
    return 0;
}

static const struct media_v2_pad *pad_with_id(const struct topology *graph, uint32_t id) {
    for (uint32_t index = 0; index < graph->pad_count; index++)
        if (graph->pads[index].id == id) return &graph->pads[index];
    return NULL;
}

static const struct media_v2_entity *entity_with_id(const struct topology *graph, uint32_t id) {
    for (uint32_t index = 0; index < graph->entity_count; index++)
        if (graph->entities[index].id == id) return &graph->entities[index];
    return NULL;
}

// The entity an interface of `type` with device number `device` controls, 0 when none.
static uint32_t entity_of_interface(const struct topology *graph, uint32_t type, dev_t device) {
    for (uint32_t index = 0; index < graph->interface_count; index++) {
        const struct media_v2_interface *interface = &graph->interfaces[index];
        if (interface->intf_type != type || interface->devnode.major != major(device) ||
            interface->devnode.minor != minor(device))
            continue;
        for (uint32_t link = 0; link < graph->link_count; link++)
            if ((graph->links[link].flags & MEDIA_LNK_FL_LINK_TYPE) == MEDIA_LNK_FL_INTERFACE_LINK &&
                graph->links[link].source_id == interface->id)
                return graph->links[link].sink_id;
    }
    return 0;
}

// The subdevice node of `entity` (its V4L_SUBDEV interface), through sysfs's device number.
static int subdevice_path(const struct topology *graph, uint32_t entity, char *path, size_t size) {
    for (uint32_t link = 0; link < graph->link_count; link++) {
        if ((graph->links[link].flags & MEDIA_LNK_FL_LINK_TYPE) != MEDIA_LNK_FL_INTERFACE_LINK ||
            graph->links[link].sink_id != entity)
            continue;
        for (uint32_t index = 0; index < graph->interface_count; index++) {
            const struct media_v2_interface *interface = &graph->interfaces[index];
            if (interface->id != graph->links[link].source_id || interface->intf_type != MEDIA_INTF_T_V4L_SUBDEV) continue;
            char uevent[64];
            snprintf(uevent, sizeof uevent, "/sys/dev/char/%u:%u/uevent", interface->devnode.major, interface->devnode.minor);
            FILE *file = fopen(uevent, "re");
            if (!file) return -errno;
            char line[256];
            int found = -ENOENT;
            while (fgets(line, sizeof line, file)) {
                if (strncmp(line, "DEVNAME=", 8) != 0) continue;
                line[strcspn(line, "\n")] = 0;
                snprintf(path, size, "/dev/%s", line + 8);
                found = 0;
                break;
            }
            fclose(file);
            return found;
        }
    }
    return -ENOENT;
}

// The sensor upstream of `start` over enabled data links: the one camera-sensor entity the
// configured pipeline reaches, 0 when it reaches none or more than one.
static uint32_t upstream_sensor(const struct topology *graph, uint32_t start) {
    uint32_t frontier[MAXIMUM_PIPELINE_DEPTH * 4], next[MAXIMUM_PIPELINE_DEPTH * 4];
    uint32_t frontier_count = 1, sensor = 0, sensors = 0;
    frontier[0] = start;
    for (int depth = 0; depth < MAXIMUM_PIPELINE_DEPTH && frontier_count > 0; depth++) {
        uint32_t next_count = 0;
        for (uint32_t link = 0; link < graph->link_count; link++) {
            const struct media_v2_link *data = &graph->links[link];
            if ((data->flags & MEDIA_LNK_FL_LINK_TYPE) != MEDIA_LNK_FL_DATA_LINK || !(data->flags & MEDIA_LNK_FL_ENABLED)) continue;
            const struct media_v2_pad *sink = pad_with_id(graph, data->sink_id);
            const struct media_v2_pad *source = pad_with_id(graph, data->source_id);
            if (!sink || !source) continue;
            for (uint32_t index = 0; index < frontier_count; index++) {
                if (sink->entity_id != frontier[index]) continue;
                const struct media_v2_entity *entity = entity_with_id(graph, source->entity_id);
                if (!entity) continue;
                if (entity->function == MEDIA_ENT_F_CAM_SENSOR) {
                    if (sensor != entity->id) sensors++;
                    sensor = entity->id;
                } else if (next_count < sizeof next / sizeof next[0]) {
                    next[next_count++] = entity->id;
                }
            }
        }
        memcpy(frontier, next, next_count * sizeof next[0]);
        frontier_count = next_count;
    }
    return sensors == 1 ? sensor : 0;
}

// A control of the subdevice, -1 when it has none (pc_v4l2_get_control's read: libv4l2 passes
// a descriptor it did not open straight to the kernel).
static int32_t subdevice_control(int fd, uint32_t id) {
    int64_t value = -1;
    return pc_v4l2_get_control(fd, id, &value) == 0 ? (int32_t)value : -1;
}

int pc_v4l2_pipeline_sensor(int fd, struct pc_v4l2_pipeline_sensor *sensor) {
    memset(sensor, 0, sizeof(*sensor));
    sensor->rotation = -1;
    sensor->orientation = -1;
    struct stat node;
    if (fstat(fd, &node) != 0) return -errno;
    if (!S_ISCHR(node.st_mode)) return -ENOTTY;
    // The media devices registered on the node's parent device (sysfs: .../device/mediaN).
    char parent[64];
    snprintf(parent, sizeof parent, "/sys/dev/char/%u:%u/device", major(node.st_rdev), minor(node.st_rdev));
    DIR *directory = opendir(parent);
    if (!directory) return errno == ENOENT ? -ENOENT : -errno;
    int result = -ENOENT;
    struct dirent *entry;
    while (result == -ENOENT && (entry = readdir(directory))) {
        unsigned number;
        char tail;
        if (sscanf(entry->d_name, "media%u%c", &number, &tail) != 1) continue;
        char media_path[32];
        snprintf(media_path, sizeof media_path, "/dev/media%u", number);
        int media_fd = open(media_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (media_fd < 0) continue;
        struct topology graph;
        if (topology_read(media_fd, &graph) == 0) {
            uint32_t video = entity_of_interface(&graph, MEDIA_INTF_T_V4L_VIDEO, node.st_rdev);
            uint32_t found = video ? upstream_sensor(&graph, video) : 0;
            const struct media_v2_entity *entity = found ? entity_with_id(&graph, found) : NULL;
            if (entity && subdevice_path(&graph, found, sensor->subdevice, sizeof sensor->subdevice) == 0) {
                snprintf(sensor->name, sizeof sensor->name, "%s", entity->name);
                int subdevice = open(sensor->subdevice, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
                if (subdevice >= 0) {
                    sensor->rotation = subdevice_control(subdevice, V4L2_CID_CAMERA_SENSOR_ROTATION);
                    sensor->orientation = subdevice_control(subdevice, V4L2_CID_CAMERA_ORIENTATION);
                    close(subdevice);
                    result = 0;
                } else {
                    result = -errno;
                }
            }
            topology_free(&graph);
        }
        close(media_fd);
    }
    closedir(directory);
    return result;
}
