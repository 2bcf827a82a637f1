#include "cxml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libxml2's own headers give the types and the structs' layout; its functions are found with
// dlsym, each pointer typed after the function it holds.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

static struct {
    void *handle;
    char failure[256];
    __typeof__(xmlInitParser) *init_parser;
    __typeof__(xmlCreatePushParserCtxt) *create_push;
    __typeof__(xmlCtxtUseOptions) *use_options;
    __typeof__(xmlParseChunk) *parse_chunk;
    __typeof__(xmlFreeParserCtxt) *free_context;
    __typeof__(xmlFreeDoc) *free_document;
    __typeof__(xmlDocGetRootElement) *root_element;
    __typeof__(xmlFirstElementChild) *first_element_child;
    __typeof__(xmlNextElementSibling) *next_element_sibling;
    __typeof__(xmlSetStructuredErrorFunc) *set_structured_error;
    __typeof__(__xmlStructuredError) *structured_error;
    __typeof__(__xmlStructuredErrorContext) *structured_error_context;
} xml;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *error = dlerror();
        snprintf(xml.failure, sizeof xml.failure, "%s", error ? error : "dlopen failed");
        return;
    }
#define SYMBOL(field, name)                                                                    \
    do {                                                                                       \
        *(void **)&xml.field = dlsym(handle, name);                                            \
        if (xml.field == NULL) {                                                               \
            snprintf(xml.failure, sizeof xml.failure, "libxml2.so.2 has no %s", name);         \
            return;                                                                            \
        }                                                                                      \
    } while (0)
    SYMBOL(init_parser, "xmlInitParser");
    SYMBOL(create_push, "xmlCreatePushParserCtxt");
    SYMBOL(use_options, "xmlCtxtUseOptions");
    SYMBOL(parse_chunk, "xmlParseChunk");
    SYMBOL(free_context, "xmlFreeParserCtxt");
    SYMBOL(free_document, "xmlFreeDoc");
    SYMBOL(root_element, "xmlDocGetRootElement");
    SYMBOL(first_element_child, "xmlFirstElementChild");
    SYMBOL(next_element_sibling, "xmlNextElementSibling");
    SYMBOL(set_structured_error, "xmlSetStructuredErrorFunc");
    SYMBOL(structured_error, "__xmlStructuredError");
    SYMBOL(structured_error_context, "__xmlStructuredErrorContext");
#undef SYMBOL
    // libxml2 wants its globals set up once before parsing on several threads.
    xml.init_parser();
    xml.handle = handle;
}

int pc_xml_load(char *reason, size_t reason_size) {
    pthread_once(&load_once, load);
    if (xml.handle != NULL) return 0;
    if (reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", xml.failure);
    return -1;
}

/// Keeps the first report: later ones are often consequences of it.
static void record_first_error(void *user_data, xmlErrorPtr error) {
    pc_xml_document_check *check = user_data;
    if (check->error_code != 0 || error == NULL) return;
    check->error_code = error->code != 0 ? error->code : -1;
    check->error_line = error->line;
    check->error_column = error->int2;
}

static char *copy(const char *text) { return text != NULL ? strdup(text) : NULL; }

static int is_rdf(const xmlNode *node, const char *rdf_namespace) {
    const char *name = (const char *)node->name;
    const xmlNs *ns = node->ns;
    return name != NULL && strcmp(name, "RDF") == 0 && ns != NULL && ns->prefix != NULL &&
           strcmp((const char *)ns->prefix, "rdf") == 0 && ns->href != NULL && strcmp((const char *)ns->href, rdf_namespace) == 0;
}

int pc_xml_check_document(const char *bytes, int size, const char *rdf_namespace, pc_xml_document_check *check) {
    memset(check, 0, sizeof *check);
    if (pc_xml_load(NULL, 0) != 0) return -1;
    // Errors go to this check, not to stderr; the thread's previous handler comes back after.
    xmlStructuredErrorFunc previous = *xml.structured_error();
    void *previous_context = *xml.structured_error_context();
    xml.set_structured_error(check, record_first_error);
    int head = size < 4 ? size : 4;
    xmlParserCtxtPtr context = xml.create_push(NULL, NULL, bytes, head, NULL);
    int status = -1;
    if (context != NULL) {
        xml.use_options(context, XML_PARSE_NONET);
        xml.parse_chunk(context, bytes + head, size - head, 1);
        xmlDocPtr document = context->myDoc;
        xmlNodePtr root = document != NULL ? xml.root_element(document) : NULL;
        if (root != NULL && root->name != NULL) {
            const char *name = (const char *)root->name;
            const char *prefix = root->ns != NULL ? (const char *)root->ns->prefix : NULL;
            size_t length = strlen(name) + (prefix != NULL ? strlen(prefix) + 1 : 0) + 1;
            check->root_name = malloc(length);
            if (check->root_name != NULL) {
                snprintf(check->root_name, length, "%s%s%s", prefix != NULL ? prefix : "", prefix != NULL ? ":" : "", name);
            }
            check->root_namespace = root->ns != NULL ? copy((const char *)root->ns->href) : NULL;
            check->has_rdf = is_rdf(root, rdf_namespace);
            for (xmlNodePtr child = xml.first_element_child(root); child != NULL && !check->has_rdf;
                 child = xml.next_element_sibling(child)) {
                check->has_rdf = is_rdf(child, rdf_namespace);
            }
        }
        int out_of_memory = root != NULL && root->name != NULL && check->root_name == NULL;
        context->myDoc = NULL;
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
