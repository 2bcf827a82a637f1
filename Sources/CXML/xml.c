#include "cxml.h"

#include <CLibraryLoading.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libxml2's ABI, declared here because it is loaded at run time and its headers are not needed
// to build photocap: including them takes -I/usr/include/libxml2, an unsafe flag that SwiftPM
// refuses in a package used by URL, and PhotoCapture (which checks XMP) must stay usable so.
// These are the leading fields of its public structs, unchanged since 2.0.

/// struct _xmlError.
typedef struct {
    int domain;
    int code;
    char *message;
    int level;
    char *file;
    int line;
    char *str1, *str2, *str3;
    int int1;
    int int2; // the column
    void *context;
    void *node;
} xml_error;

/// struct _xmlNs.
typedef struct {
    void *next;
    int type;
    const char *href;
    const char *prefix;
} xml_ns;

struct xml_attribute;

/// struct _xmlNode.
typedef struct xml_node {
    void *private_data;
    int type;
    const char *name;
    struct xml_node *children, *last, *parent, *next, *prev;
    void *doc;
    xml_ns *ns;
    char *content;
    struct xml_attribute *properties;
} xml_node;

/// struct _xmlAttr.
typedef struct xml_attribute {
    void *private_data;
    int type;
    const char *name;
    xml_node *children, *last, *parent;
    struct xml_attribute *next, *prev;
    void *doc;
    xml_ns *ns;
} xml_attribute;

enum { XML_TEXT_NODE = 3 };

/// struct _xmlSAXHandler, whose first field is called at a document type declaration.
typedef struct {
    void (*internal_subset)(void *context, const char *name, const char *external_id, const char *system_id);
} xml_sax_handler;

/// struct _xmlParserCtxt.
typedef struct {
    xml_sax_handler *sax;
    void *user_data;
    void *document;
} xml_parser_context;

typedef void (*xml_structured_error)(void *user_data, xml_error *error);

enum {
    XML_PARSE_NONET = 1 << 11,
    // Text nodes over 10 MB: an Android portrait's unblurred original, base64 in its XMP. It
    // also lifts libxml2's guard on entity amplification, moot since no document type (where
    // entities are declared) is parsed at all: see refuse_document_type.
    XML_PARSE_HUGE = 1 << 19,
    // xmlSaveOption: no <?xml?> declaration (an XMP packet starts with its xpacket instruction).
    XML_SAVE_NO_DECL = 1 << 1,
};

/// libxml2's functions, filled by pc_library_load.
static struct {
    void (*init_parser)(void);
    xml_parser_context *(*create_push)(void *sax, void *user_data, const char *chunk, int size, const char *filename);
    int (*use_options)(xml_parser_context *context, int options);
    int (*parse_chunk)(xml_parser_context *context, const char *chunk, int size, int terminate);
    void (*free_context)(xml_parser_context *context);
    void (*free_document)(void *document);
    xml_node *(*root_element)(void *document);
    xml_node *(*first_element_child)(xml_node *node);
    xml_node *(*next_element_sibling)(xml_node *node);
    void (*set_structured_error)(void *user_data, xml_structured_error handler);
    xml_structured_error *(*structured_error)(void);
    void **(*structured_error_context)(void);
    xml_node *(*copy_node)(xml_node *node, void *document, int recursive);
    xml_node *(*add_child)(xml_node *parent, xml_node *child);
    void *(*buffer_create)(void);
    void (*buffer_free)(void *buffer);
    const char *(*buffer_content)(const void *buffer);
    int (*buffer_length)(const void *buffer);
    void *(*save_to_buffer)(void *buffer, const char *encoding, int options);
    long (*save_document)(void *save_context, void *document);
    int (*save_close)(void *save_context);
    xml_attribute *(*has_ns_prop)(const xml_node *node, const char *name, const char *namespace_href);
    xml_attribute *(*set_ns_prop)(xml_node *node, xml_ns *ns, const char *name, const char *value);
    int (*remove_prop)(xml_attribute *attribute);
    void (*unlink_node)(xml_node *node);
    void (*free_node)(xml_node *node);
    xml_node *(*new_doc_text)(void *document, const char *content);
    void (*stop_parser)(xml_parser_context *context);
    int (*line_number)(void *context);
    int (*column_number)(void *context);
} xml;

/// The libxml2 functions in the order of their fields in `xml`.
static const char *const function_names[] = {
    "xmlInitParser", "xmlCreatePushParserCtxt", "xmlCtxtUseOptions", "xmlParseChunk", "xmlFreeParserCtxt",
    "xmlFreeDoc", "xmlDocGetRootElement", "xmlFirstElementChild", "xmlNextElementSibling",
    "xmlSetStructuredErrorFunc", "__xmlStructuredError", "__xmlStructuredErrorContext",
    "xmlDocCopyNode", "xmlAddChild", "xmlBufferCreate", "xmlBufferFree", "xmlBufferContent", "xmlBufferLength",
    "xmlSaveToBuffer", "xmlSaveDoc", "xmlSaveClose", "xmlHasNsProp", "xmlSetNsProp",
    "xmlRemoveProp", "xmlUnlinkNode", "xmlFreeNode", "xmlNewDocText", "xmlStopParser",
    "xmlSAX2GetLineNumber", "xmlSAX2GetColumnNumber",
};
enum { function_count = sizeof function_names / sizeof function_names[0] };
_Static_assert(sizeof xml == function_count * sizeof(void *), "a name for every function field, in order");
static pc_library library = {"libxml2.so.2", "", function_names, function_count, (void **)&xml};

static pthread_once_t initialise_once = PTHREAD_ONCE_INIT;

// libxml2 wants its globals set up once before parsing on several threads.
static void initialise(void) { xml.init_parser(); }

int pc_xml_load(char *reason, size_t reason_size) {
    if (pc_library_load(&library, reason, reason_size) == NULL) return -1;
    pthread_once(&initialise_once, initialise);
    return 0;
}

/// Keeps the first report: later ones are often consequences of it.
static void record_first_error(void *user_data, xml_error *error) {
    pc_xml_document_check *check = user_data;
    if (check->error_code != 0 || error == NULL) return;
    check->error_code = error->code != 0 ? error->code : -1;
    check->error_line = error->line;
    check->error_column = error->int2;
}

static char *copy(const char *text) { return text != NULL ? strdup(text) : NULL; }

static int is_rdf(const xml_node *node, const char *rdf_namespace) {
    return node->name != NULL && strcmp(node->name, "RDF") == 0 && node->ns != NULL && node->ns->prefix != NULL &&
           strcmp(node->ns->prefix, "rdf") == 0 && node->ns->href != NULL && strcmp(node->ns->href, rdf_namespace) == 0;
}

/// The root if it is rdf:RDF, else the root's first child that is; NULL when neither is.
static xml_node *rdf_element(xml_node *root, const char *rdf_namespace) {
    if (is_rdf(root, rdf_namespace)) return root;
    for (xml_node *child = xml.first_element_child(root); child != NULL; child = xml.next_element_sibling(child)) {
        if (is_rdf(child, rdf_namespace)) return child;
    }
    return NULL;
}

/// The check of the document this thread is parsing, for refuse_document_type.
static _Thread_local pc_xml_document_check *parsing;

/// Stops the parse at a document type declaration, before its internal subset is read: XMP has
/// none, and the entities declared there are what expand without bound ("billion laughs": a
/// 1.7 KB packet took minutes and gigabytes) or name files and URLs to fetch.
static void refuse_document_type(void *context, const char *name, const char *external_id, const char *system_id) {
    (void)name, (void)external_id, (void)system_id;
    if (parsing != NULL && parsing->error_code == 0) {
        parsing->error_code = PC_XML_ERROR_DOCUMENT_TYPE;
        parsing->error_line = xml.line_number(context);
        parsing->error_column = xml.column_number(context);
    }
    xml.stop_parser(context);
}

/// Parses `size` bytes into a document (freed with xml.free_document), the first error recorded
/// in `check`; NULL when libxml2 made none. Sets `*out_of_memory` when it could not start.
static void *parse_with(const char *bytes, int size, int options, pc_xml_document_check *check, int *out_of_memory) {
    // Errors go to this check, not to stderr; the thread's previous handler comes back after.
    xml_structured_error previous = *xml.structured_error();
    void *previous_context = *xml.structured_error_context();
    xml.set_structured_error(check, record_first_error);
    int head = size < 4 ? size : 4;
    xml_parser_context *context = xml.create_push(NULL, NULL, bytes, head, NULL);
    void *document = NULL;
    *out_of_memory = context == NULL;
    if (context != NULL) {
        // No XML_PARSE_NOENT or XML_PARSE_DTDLOAD: nothing is substituted or loaded, and a
        // document type is refused outright (the handler table is this context's own copy).
        xml.use_options(context, XML_PARSE_NONET | options);
        context->sax->internal_subset = refuse_document_type;
        parsing = check;
        xml.parse_chunk(context, bytes + head, size - head, 1);
        parsing = NULL;
        document = context->document;
        context->document = NULL;
        xml.free_context(context);
    }
    xml.set_structured_error(previous_context, previous);
    return document;
}

static void *parse(const char *bytes, int size, pc_xml_document_check *check, int *out_of_memory) {
    return parse_with(bytes, size, 0, check, out_of_memory);
}

int pc_xml_check_document(const char *bytes, int size, const char *rdf_namespace, pc_xml_document_check *check) {
    memset(check, 0, sizeof *check);
    if (pc_xml_load(NULL, 0) != 0) return -1;
    int out_of_memory = 0;
    void *document = parse(bytes, size, check, &out_of_memory);
    if (out_of_memory) return -1;
    xml_node *root = document != NULL ? xml.root_element(document) : NULL;
    if (root != NULL && root->name != NULL) {
        const char *prefix = root->ns != NULL ? root->ns->prefix : NULL;
        size_t length = strlen(root->name) + (prefix != NULL ? strlen(prefix) + 1 : 0) + 1;
        check->root_name = malloc(length);
        if (check->root_name != NULL) {
            snprintf(check->root_name, length, "%s%s%s", prefix != NULL ? prefix : "", prefix != NULL ? ":" : "", root->name);
        }
        check->root_namespace = root->ns != NULL ? copy(root->ns->href) : NULL;
        xml_node *rdf = rdf_element(root, rdf_namespace);
        check->has_rdf = rdf != NULL;
        for (xml_node *child = rdf != NULL ? xml.first_element_child(rdf) : NULL; child != NULL; child = xml.next_element_sibling(child)) {
            check->rdf_elements += 1;
        }
        out_of_memory = check->root_name == NULL;
    }
    if (document != NULL) xml.free_document(document);
    return out_of_memory ? -1 : 0;
}

/// Whether `ns` is `namespace_href`.
static int is_namespace(const xml_ns *ns, const char *namespace_href) {
    return ns != NULL && ns->href != NULL && strcmp(ns->href, namespace_href) == 0;
}

/// The text of `children` when it is one text node (a plain value), else NULL.
static const char *plain_text(const xml_node *children) {
    if (children == NULL || children->type != XML_TEXT_NODE || children->next != NULL) return NULL;
    return children->content;
}

/// Copies `text` into the slot of `names` that `name` is, unless that slot is filled; returns
/// -1 when out of memory.
static int keep_value(const char *name, const char *text, const char *const *names, int count, char **values) {
    if (name == NULL || text == NULL) return 0;
    for (int index = 0; index < count; index++) {
        if (strcmp(name, names[index]) != 0 || values[index] != NULL) continue;
        values[index] = copy(text);
        return values[index] != NULL ? 0 : -1;
    }
    return 0;
}

int pc_xml_namespaced_properties(const char *bytes, int size, const char *rdf_namespace, const char *attribute_namespace,
                                 const char *const *names, int count, char **values) {
    for (int index = 0; index < count; index++) values[index] = NULL;
    if (pc_xml_load(NULL, 0) != 0) return -1;
    pc_xml_document_check check;
    memset(&check, 0, sizeof check);
    int out_of_memory = 0;
    void *document = parse_with(bytes, size, XML_PARSE_HUGE, &check, &out_of_memory);
    if (out_of_memory) return -1;
    int found = 0;
    xml_node *root = document != NULL && check.error_code == 0 ? xml.root_element(document) : NULL;
    xml_node *rdf = root != NULL ? rdf_element(root, rdf_namespace) : NULL;
    // Every description: RDF merges those about the same resource, and writers split a
    // namespace over several (ExifTool puts a property too large for the rest in one of its own).
    for (xml_node *child = rdf != NULL ? xml.first_element_child(rdf) : NULL; child != NULL;
         child = xml.next_element_sibling(child)) {
        // RDF writes a simple property as an attribute (as photocap does) or as an element (as
        // ExifTool rewrites it); a value that is not plain text (an entity reference) is not read.
        for (xml_attribute *attribute = child->properties; attribute != NULL; attribute = attribute->next) {
            if (!is_namespace(attribute->ns, attribute_namespace)) continue;
            found = 1;
            if (keep_value(attribute->name, plain_text(attribute->children), names, count, values) != 0) out_of_memory = 1;
        }
        for (xml_node *property = xml.first_element_child(child); property != NULL; property = xml.next_element_sibling(property)) {
            if (!is_namespace(property->ns, attribute_namespace)) continue;
            found = 1;
            if (keep_value(property->name, plain_text(property->children), names, count, values) != 0) out_of_memory = 1;
        }
    }
    if (document != NULL) xml.free_document(document);
    if (out_of_memory) {
        for (int index = 0; index < count; index++) {
            free(values[index]);
            values[index] = NULL;
        }
        return -1;
    }
    return found;
}

/// Writes `document` (UTF-8, without an XML declaration) into `*out` (`*out_size` bytes and a
/// terminating NUL; freed by the caller). Returns 1, or -1 when out of memory.
static int serialise(void *document, char **out, int *out_size) {
    void *buffer = xml.buffer_create();
    void *save = buffer != NULL ? xml.save_to_buffer(buffer, "UTF-8", XML_SAVE_NO_DECL) : NULL;
    long written = save != NULL ? xml.save_document(save, document) : -1;
    if (save != NULL) xml.save_close(save);
    int length = buffer != NULL ? xml.buffer_length(buffer) : 0;
    int status = -1;
    if (written >= 0 && length > 0 && (*out = malloc((size_t)length + 1)) != NULL) {
        memcpy(*out, xml.buffer_content(buffer), (size_t)length);
        (*out)[length] = 0;
        *out_size = length;
        status = 1;
    }
    if (buffer != NULL) xml.buffer_free(buffer);
    return status;
}

int pc_xml_append_description(const char *bytes, int size, const char *description, int description_size,
                              const char *rdf_namespace, char **merged, int *merged_size) {
    *merged = NULL;
    *merged_size = 0;
    if (pc_xml_load(NULL, 0) != 0) return -1;
    pc_xml_document_check check, description_check;
    memset(&check, 0, sizeof check);
    memset(&description_check, 0, sizeof description_check);
    int out_of_memory = 0;
    void *document = parse(bytes, size, &check, &out_of_memory);
    void *addition = out_of_memory ? NULL : parse(description, description_size, &description_check, &out_of_memory);
    int status = out_of_memory ? -1 : 0;
    xml_node *root = document != NULL && check.error_code == 0 ? xml.root_element(document) : NULL;
    xml_node *rdf = root != NULL ? rdf_element(root, rdf_namespace) : NULL;
    xml_node *added = addition != NULL && description_check.error_code == 0 ? xml.root_element(addition) : NULL;
    if (status == 0 && rdf != NULL && added != NULL) {
        // The copy carries the namespaces its element declares; the document keeps the rest
        // (instructions, comments, entity references) as it was parsed.
        xml_node *copy = xml.copy_node(added, document, 1);
        status = copy != NULL && xml.add_child(rdf, copy) != NULL ? serialise(document, merged, merged_size) : -1;
    }
    if (addition != NULL) xml.free_document(addition);
    if (document != NULL) xml.free_document(document);
    return status;
}

/// Sets the Length attribute (in `item_namespace`) of the container items after the first, in
/// document order, to `lengths`; counts the items seen in `*items`.
static void set_item_lengths(xml_node *node, const char *container_namespace, const char *item_namespace,
                             const long *lengths, int count, int *items, int *changed) {
    for (; node != NULL; node = node->next) {
        if (node->type != 1) continue;  // elements only
        if (node->name != NULL && strcmp(node->name, "Item") == 0 && is_namespace(node->ns, container_namespace)) {
            int index = (*items)++ - 1;  // the first item is the primary image
            xml_attribute *length = index >= 0 && index < count ? xml.has_ns_prop(node, "Length", item_namespace) : NULL;
            if (length != NULL) {
                char value[32];
                snprintf(value, sizeof value, "%ld", lengths[index]);
                if (xml.set_ns_prop(node, length->ns, "Length", value) != NULL) (*changed)++;
            }
        }
        set_item_lengths(node->children, container_namespace, item_namespace, lengths, count, items, changed);
    }
}

int pc_xml_set_container_item_lengths(const char *bytes, int size, const char *container_namespace,
                                      const char *item_namespace, const long *lengths, int count,
                                      char **edited, int *edited_size, int *items) {
    *edited = NULL;
    *edited_size = 0;
    *items = 0;
    if (pc_xml_load(NULL, 0) != 0) return -1;
    pc_xml_document_check check;
    memset(&check, 0, sizeof check);
    int out_of_memory = 0;
    void *document = parse(bytes, size, &check, &out_of_memory);
    int status = out_of_memory ? -1 : 0;
    xml_node *root = document != NULL && check.error_code == 0 ? xml.root_element(document) : NULL;
    if (status == 0 && root != NULL) {
        int changed = 0;
        set_item_lengths(root, container_namespace, item_namespace, lengths, count, items, &changed);
        if (changed > 0) status = serialise(document, edited, edited_size);
    }
    pc_xml_release(&check);
    if (document != NULL) xml.free_document(document);
    return status;
}

/// The index of `name` in `names`, -1 when absent.
static int name_index(const char *name, const char *const *names, int count) {
    for (int index = 0; name != NULL && index < count; index++) {
        if (strcmp(name, names[index]) == 0) return index;
    }
    return -1;
}

/// Sets or removes the properties in `property_namespace` of one rdf:RDF element (see
/// pc_xml_set_properties); counts the changes in `*changed`. Returns -1 when out of memory.
static int set_properties_of(xml_node *element, const char *property_namespace, const char *const *names,
                             const char *const *values, int count, int remove_others, int *changed) {
    xml_attribute *attribute = element->properties;
    while (attribute != NULL) {
        xml_attribute *next = attribute->next;
        if (is_namespace(attribute->ns, property_namespace)) {
            int index = name_index(attribute->name, names, count);
            if (index >= 0 && values[index] != NULL) {
                if (xml.set_ns_prop(element, attribute->ns, attribute->name, values[index]) == NULL) return -1;
                (*changed)++;
            } else if (index >= 0 || remove_others) {
                if (xml.remove_prop(attribute) == 0) (*changed)++;
            }
        }
        attribute = next;
    }
    xml_node *property = xml.first_element_child(element);
    while (property != NULL) {
        xml_node *next = xml.next_element_sibling(property);
        if (is_namespace(property->ns, property_namespace)) {
            int index = name_index(property->name, names, count);
            if (index >= 0 && values[index] != NULL && plain_text(property->children) != NULL) {
                // The one text node is replaced by a new one holding the value as it is (the
                // serialiser escapes it).
                xml_node *text = xml.new_doc_text(property->doc, values[index]);
                if (text == NULL) return -1;
                xml_node *old = property->children;
                xml.unlink_node(old);
                xml.free_node(old);
                if (xml.add_child(property, text) == NULL) return -1;
                (*changed)++;
            } else if (index >= 0 ? values[index] == NULL : remove_others) {
                xml.unlink_node(property);
                xml.free_node(property);
                (*changed)++;
            }
        }
        property = next;
    }
    return 0;
}

/// Parses `size` bytes for an edit, without libxml2's limit on the size of a text, into
/// `*document` (NULL when libxml2 made none; the caller frees it) and returns its rdf:RDF, NULL
/// when the document is not well-formed or has none. `*status` is -1 when libxml2 is not
/// loaded or out of memory, else 0.
static xml_node *parse_for_edit(const char *bytes, int size, const char *rdf_namespace, void **document, int *status) {
    *document = NULL;
    *status = -1;
    if (pc_xml_load(NULL, 0) != 0) return NULL;
    pc_xml_document_check check;
    memset(&check, 0, sizeof check);
    int out_of_memory = 0;
    *document = parse_with(bytes, size, XML_PARSE_HUGE, &check, &out_of_memory);
    *status = out_of_memory ? -1 : 0;
    xml_node *root = *document != NULL && check.error_code == 0 ? xml.root_element(*document) : NULL;
    return root != NULL ? rdf_element(root, rdf_namespace) : NULL;
}

int pc_xml_set_properties(const char *bytes, int size, const char *rdf_namespace, const char *property_namespace,
                          const char *const *names, const char *const *values, int count, int remove_others,
                          char **edited, int *edited_size) {
    *edited = NULL;
    *edited_size = 0;
    void *document;
    int status;
    xml_node *rdf = parse_for_edit(bytes, size, rdf_namespace, &document, &status);
    int changed = 0;
    for (xml_node *child = rdf != NULL ? xml.first_element_child(rdf) : NULL; child != NULL && status == 0;
         child = xml.next_element_sibling(child)) {
        status = set_properties_of(child, property_namespace, names, values, count, remove_others, &changed);
    }
    if (status == 0 && changed > 0) status = serialise(document, edited, edited_size);
    if (document != NULL) xml.free_document(document);
    return status;
}

void pc_xml_release(pc_xml_document_check *check) {
    free(check->root_name);
    free(check->root_namespace);
    check->root_name = NULL;
    check->root_namespace = NULL;
}

/// Whether `description` holds no property: no attribute but `rdf:about`, no child element.
static int holds_nothing(xml_node *description, const char *rdf_namespace) {
    for (xml_attribute *attribute = description->properties; attribute != NULL; attribute = attribute->next) {
        if (!is_namespace(attribute->ns, rdf_namespace) || attribute->name == NULL || strcmp(attribute->name, "about") != 0) return 0;
    }
    return xml.first_element_child(description) == NULL;
}

/// Unlinks and frees `node`, with the text before it when that is only white space (its line).
static void remove_with_indent(xml_node *node) {
    xml_node *before = node->prev;
    if (before != NULL && before->type == XML_TEXT_NODE && before->content != NULL &&
        strspn(before->content, " \t\r\n") == strlen(before->content)) {
        xml.unlink_node(before);
        xml.free_node(before);
    }
    xml.unlink_node(node);
    xml.free_node(node);
}

int pc_xml_remove_namespace(const char *bytes, int size, const char *rdf_namespace, const char *property_namespace,
                            char **edited, int *edited_size) {
    *edited = NULL;
    *edited_size = 0;
    void *document;
    int status;
    xml_node *rdf = parse_for_edit(bytes, size, rdf_namespace, &document, &status);
    int changed = 0;
    xml_node *child = rdf != NULL ? xml.first_element_child(rdf) : NULL;
    while (child != NULL && status == 0) {
        xml_node *next = xml.next_element_sibling(child);
        int removed = 0;
        status = set_properties_of(child, property_namespace, NULL, NULL, 0, 1, &removed);
        if (status == 0 && removed > 0 && holds_nothing(child, rdf_namespace)) remove_with_indent(child);
        changed += removed;
        child = next;
    }
    if (status == 0 && changed > 0) status = serialise(document, edited, edited_size);
    if (document != NULL) xml.free_document(document);
    return status;
}
