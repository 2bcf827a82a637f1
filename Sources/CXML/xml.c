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

/// struct _xmlNode.
typedef struct {
    void *private_data;
    int type;
    const char *name;
    void *children, *last, *parent, *next, *prev, *doc;
    xml_ns *ns;
} xml_node;

/// struct _xmlParserCtxt.
typedef struct {
    void *sax;
    void *user_data;
    void *document;
} xml_parser_context;

typedef void (*xml_structured_error)(void *user_data, xml_error *error);

enum {
    XML_PARSE_NONET = 1 << 11,
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
} xml;

/// The libxml2 functions in the order of their fields in `xml`.
static const char *const function_names[] = {
    "xmlInitParser", "xmlCreatePushParserCtxt", "xmlCtxtUseOptions", "xmlParseChunk", "xmlFreeParserCtxt",
    "xmlFreeDoc", "xmlDocGetRootElement", "xmlFirstElementChild", "xmlNextElementSibling",
    "xmlSetStructuredErrorFunc", "__xmlStructuredError", "__xmlStructuredErrorContext",
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

int pc_xml_check_document(const char *bytes, int size, const char *rdf_namespace, pc_xml_document_check *check) {
    memset(check, 0, sizeof *check);
    if (pc_xml_load(NULL, 0) != 0) return -1;
    // Errors go to this check, not to stderr; the thread's previous handler comes back after.
    xml_structured_error previous = *xml.structured_error();
    void *previous_context = *xml.structured_error_context();
    xml.set_structured_error(check, record_first_error);
    int head = size < 4 ? size : 4;
    xml_parser_context *context = xml.create_push(NULL, NULL, bytes, head, NULL);
    int status = -1;
    if (context != NULL) {
        xml.use_options(context, XML_PARSE_NONET);
        xml.parse_chunk(context, bytes + head, size - head, 1);
        void *document = context->document;
        xml_node *root = document != NULL ? xml.root_element(document) : NULL;
        if (root != NULL && root->name != NULL) {
            const char *prefix = root->ns != NULL ? root->ns->prefix : NULL;
            size_t length = strlen(root->name) + (prefix != NULL ? strlen(prefix) + 1 : 0) + 1;
            check->root_name = malloc(length);
            if (check->root_name != NULL) {
                snprintf(check->root_name, length, "%s%s%s", prefix != NULL ? prefix : "", prefix != NULL ? ":" : "", root->name);
            }
            check->root_namespace = root->ns != NULL ? copy(root->ns->href) : NULL;
            check->has_rdf = is_rdf(root, rdf_namespace);
            for (xml_node *child = xml.first_element_child(root); child != NULL && !check->has_rdf;
                 child = xml.next_element_sibling(child)) {
                check->has_rdf = is_rdf(child, rdf_namespace);
            }
        }
        int out_of_memory = root != NULL && root->name != NULL && check->root_name == NULL;
        context->document = NULL;
        if (document != NULL) xml.free_document(document);
        xml.free_context(context);
        status = out_of_memory ? -1 : 0;
    }
    xml.set_structured_error(previous_context, previous);
    return status;
}

void pc_xml_release(pc_xml_document_check *check) {
    free(check->root_name);
    free(check->root_namespace);
    check->root_name = NULL;
    check->root_namespace = NULL;
}
