#pragma once
// The one seam to libxml2, which judges XMP packets. It is loaded with dlopen on first use, not
// linked: linked (through FoundationXML, before), it and the system ICU it needs (libicuuc, the
// 31 MB libicudata) were mapped at every photocap start-up (~1.5 ms), for a check that only a
// request carrying XMP makes.
#include <stddef.h>

/// The error_code of a document that declares a document type (`<!DOCTYPE`): refused, as XMP
/// allows none, before anything in it is read.
#define PC_XML_ERROR_DOCUMENT_TYPE (-2)

/// What libxml2 made of a document.
typedef struct {
    /// The first error, warning or namespace error libxml2 reported (`xmlParserErrors`), or
    /// PC_XML_ERROR_DOCUMENT_TYPE; 0 when none; and where (1-based line and column).
    int error_code;
    int error_line;
    int error_column;
    /// The root element's qualified name ("x:xmpmeta") and namespace; NULL without a root
    /// element or namespace. Freed by pc_xml_release.
    char *root_name;
    char *root_namespace;
    /// Whether an element named `rdf:RDF` in `rdf_namespace` is the root or the root's child.
    int has_rdf;
    /// How many elements that rdf:RDF holds (its descriptions); 0 without one.
    int rdf_elements;
} pc_xml_document_check;

/// Loads libxml2 ("libxml2.so.2") once per process, thread-safe. Returns 0 when it is usable;
/// otherwise -1 and the reason (dlerror's text) in `reason`.
int pc_xml_load(char *reason, size_t reason_size);

/// Parses `size` bytes as libxml2's push parser does for Foundation's XMLParser (the first four
/// bytes to detect the encoding, then the rest), without fetching anything from the network,
/// loading external DTDs or substituting entities, and refusing a document type declaration
/// (PC_XML_ERROR_DOCUMENT_TYPE) before its declarations are read. Fills `check`; returns 0, or -1 when
/// libxml2 is not loaded or out of memory.
int pc_xml_check_document(const char *bytes, int size, const char *rdf_namespace, pc_xml_document_check *check);

/// Parses `size` bytes as pc_xml_check_document does and, when the document is well-formed,
/// copies from the elements of its rdf:RDF the plain values of the properties in
/// `attribute_namespace` named `names[0..<count]` — attributes or child elements, both RDF
/// spellings; the first value of each in document order — into `values` (NULL where absent;
/// the caller frees each with free). Returns 1 when an element with properties in that
/// namespace was found, 0 when not (or the document is not well-formed), -1 when libxml2 is not loaded or out
/// of memory.
int pc_xml_namespaced_properties(const char *bytes, int size, const char *rdf_namespace, const char *attribute_namespace,
                                 const char *const *names, int count, char **values);

/// Parses `size` bytes (an XMP packet) and `description_size` bytes (one element, an
/// rdf:Description declaring its namespaces) as pc_xml_check_document does, appends a copy of
/// that element as the last child of the packet's rdf:RDF, and serialises the packet (UTF-8,
/// without an XML declaration) into `*merged` (`*merged_size` bytes and a terminating NUL; the
/// caller frees it with free). Returns 1 when merged, 0 when either is not well-formed or the
/// packet has no rdf:RDF, -1 when libxml2 is not loaded or out of memory.
int pc_xml_append_description(const char *bytes, int size, const char *description, int description_size,
                              const char *rdf_namespace, char **merged, int *merged_size);

/// Parses `size` bytes (an XMP packet) as pc_xml_check_document does and sets the `Length`
/// attribute (in `item_namespace`) of each container item (`Item` elements in
/// `container_namespace`, in document order) after the first — the images that follow the
/// primary one — to `lengths[0..<count]`, where the item has one. Counts the items in `*items`.
/// When one changed, serialises the packet as pc_xml_append_description does into `*edited`
/// and returns 1; returns 0 when none changed (or the packet is not well-formed), -1 when
/// libxml2 is not loaded or out of memory.
int pc_xml_set_container_item_lengths(const char *bytes, int size, const char *container_namespace,
                                      const char *item_namespace, const long *lengths, int count,
                                      char **edited, int *edited_size, int *items);

/// Parses `size` bytes (an XMP packet) as pc_xml_check_document does, but without libxml2's
/// limit on the size of a text (a picture in base64 can pass it), and in every element of its
/// rdf:RDF sets the plain values of the properties in `property_namespace` named
/// `names[0..<count]` — attributes or child elements holding text — to `values[i]`, or removes
/// them where `values[i]` is NULL; with `remove_others` nonzero the namespace's other properties
/// are removed too. When one changed, serialises the packet as pc_xml_append_description does
/// into `*edited` and returns 1; returns 0 when none changed (or the packet is not
/// well-formed), -1 when libxml2 is not loaded or out of memory. pc_xml_namespaced_properties
/// reads such values without that limit as well.
int pc_xml_set_properties(const char *bytes, int size, const char *rdf_namespace, const char *property_namespace,
                          const char *const *names, const char *const *values, int count, int remove_others,
                          char **edited, int *edited_size);

/// Parses `size` bytes (an XMP packet) as pc_xml_set_properties does and removes from every
/// element of its rdf:RDF the properties in `property_namespace` — attributes or child elements
/// — and then each element left holding nothing (no attribute but rdf:about, no child element):
/// a description of that namespace alone goes whole, however a tool re-serialised it. When one
/// changed, serialises the packet as pc_xml_append_description does into `*edited` and returns
/// 1; returns 0 when none changed (or the packet is not well-formed), -1 when libxml2 is not
/// loaded or out of memory.
int pc_xml_remove_namespace(const char *bytes, int size, const char *rdf_namespace, const char *property_namespace,
                            char **edited, int *edited_size);

/// Frees the strings in `check`.
void pc_xml_release(pc_xml_document_check *check);
