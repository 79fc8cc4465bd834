#include "extract/html/document.h"

#include <gumbo.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xpathInternals.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <thread>
#include <utility>

#include "core/error.h"

namespace gleaner::html {
namespace {

Error budget_exhausted(const XPathBudget& budget) {
  return Error(ErrorCode::InvalidParameter,
               "the request's selectors need more than " + std::to_string(budget.limit()) +
                   " steps of evaluation on this page; make them narrower");
}

Error out_of_time() {
  return Error(ErrorCode::Timeout,
               "the request's selectors did not finish in time (a request's selectors may take " +
                   std::to_string(XPathBudget::kMaxTime.count() / 1000) +
                   " s, and no longer than its timeout)");
}

/// Stops XPath evaluations that run past their time. libxml2 reads its context's opCount and
/// opLimit between steps; setting both to 1 from here makes the next check fail, and the
/// evaluation unwinds with XPATH_OP_LIMIT_EXCEEDED. Those are plain machine words that libxml2
/// reads through a pointer in a function of its own at every check, so a store from this thread
/// is seen there; an entry is only touched under `mutex_`, and removed (under it) before its
/// context is freed.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* dog = new Watchdog;  // never destroyed: its thread runs until exit
    return *dog;
  }

  /// Watches `ctx` until release(); returns the entry's ticket.
  std::uint64_t watch(xmlXPathContextPtr ctx, Deadline stop_at) {
    std::lock_guard lock(mutex_);
    const std::uint64_t ticket = ++last_ticket_;
    entries_.emplace(ticket, Entry{ctx, stop_at, false});
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    wake_.notify_one();
    return ticket;
  }
  /// Stops watching; whether the watchdog stopped the evaluation.
  bool release(std::uint64_t ticket) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(ticket);
    if (it == entries_.end()) return false;
    const bool stopped = it->second.stopped;
    entries_.erase(it);
    return stopped;
  }

 private:
  struct Entry {
    xmlXPathContextPtr ctx;
    Deadline stop_at;
    bool stopped;
  };

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      Deadline next = Deadline::max();
      const Deadline now = SteadyClock::now();
      for (auto& [ticket, entry] : entries_) {
        if (entry.stopped) continue;
        if (entry.stop_at <= now) {
          entry.ctx->opLimit = 1;
          entry.ctx->opCount = 1;
          entry.stopped = true;
        } else if (entry.stop_at < next) {
          next = entry.stop_at;
        }
      }
      if (next == Deadline::max())
        wake_.wait(lock);
      else
        wake_.wait_until(lock, next);
    }
  }

  std::mutex mutex_;  // guards entries_, last_ticket_, thread_
  std::condition_variable wake_;
  std::map<std::uint64_t, Entry> entries_;
  std::uint64_t last_ticket_ = 0;
  std::thread thread_;
};

// Chromium's HTML parser stops nesting elements at this depth and appends deeper ones to the
// element there; doing the same keeps every recursive walk of the tree (ours and libxml2's)
// shallow.
constexpr int kMaxDepth = 512;

void init_libxml() {
  static std::once_flag once;
  std::call_once(once, [] { xmlInitParser(); });
}

const xmlChar* x(const char* s) {
  return reinterpret_cast<const xmlChar*>(s);
}
const char* c(const xmlChar* s) {
  return reinterpret_cast<const char*>(s);
}

std::string element_name(const GumboElement& element) {
  if (element.tag != GUMBO_TAG_UNKNOWN) {
    std::string name = gumbo_normalized_tagname(element.tag);
    if (element.tag_namespace == GUMBO_NAMESPACE_SVG) {
      if (const char* svg = gumbo_normalize_svg_tagname(&element.original_tag)) name = svg;
    }
    return name;
  }
  GumboStringPiece piece = element.original_tag;
  gumbo_tag_from_original_text(&piece);
  std::string name(piece.data ? piece.data : "", piece.data ? piece.length : 0);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  // A name libxml2 could not write back (gumbo keeps whatever followed '<').
  name.erase(
      std::remove_if(name.begin(), name.end(),
                     [](unsigned char ch) { return std::isspace(ch) || ch == '/' || ch == '>'; }),
      name.end());
  return name.empty() ? "unknown" : name;
}

void add_attributes(xmlNodePtr node, const GumboVector& attributes) {
  for (unsigned i = 0; i < attributes.length; ++i) {
    const auto* attr = static_cast<const GumboAttribute*>(attributes.data[i]);
    if (!attr->name || !*attr->name) continue;
    xmlNewProp(node, x(attr->name), x(attr->value ? attr->value : ""));
  }
}

struct GumboFree {
  void operator()(GumboOutput* output) const {
    gumbo_destroy_output(&kGumboDefaultOptions, output);
  }
};

void skip_script_text(xmlNodePtr node, std::string& out) {
  for (xmlNodePtr child = node->children; child; child = child->next) {
    if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE) {
      if (child->content) out += c(child->content);
    } else if (child->type == XML_ELEMENT_NODE) {
      const std::string_view tag = tag_of(child);
      if (tag == "script" || tag == "style" || tag == "template" || tag == "noscript") continue;
      skip_script_text(child, out);
    }
  }
}

void capture_error(void* into, xmlErrorPtr error) {
  if (!into || !error || !error->message) return;
  auto* message = static_cast<std::string*>(into);
  if (message->empty()) {
    *message = error->message;
    while (!message->empty() && std::isspace(static_cast<unsigned char>(message->back()))) {
      message->pop_back();
    }
  }
}

/// Routes libxml2's error reports of this thread into a string for the scope's length (libxml2
/// would print them on stderr).
class ErrorCapture {
 public:
  explicit ErrorCapture(std::string* into) { xmlSetStructuredErrorFunc(into, &capture_error); }
  ~ErrorCapture() { xmlSetStructuredErrorFunc(nullptr, nullptr); }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;
};

}  // namespace

Document Document::parse(std::string_view html) {
  init_libxml();
  std::unique_ptr<GumboOutput, GumboFree> output(
      gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()));
  if (!output) throw std::bad_alloc();
  Document document;
  document.doc_.reset(htmlNewDocNoDtD(nullptr, nullptr));
  if (!document.doc_) throw std::bad_alloc();

  // Iterative, so a page of 100 000 nested <div>s cannot overflow the stack.
  struct Item {
    const GumboNode* node;
    xmlNodePtr parent;
    int depth;
  };
  std::vector<Item> stack{{output->root, nullptr, 0}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const GumboNode* node = item.node;
    xmlNodePtr made = nullptr;
    switch (node->type) {
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        const GumboElement& element = node->v.element;
        made = xmlNewDocNode(document.doc(), nullptr, x(element_name(element).c_str()), nullptr);
        add_attributes(made, element.attributes);
        if (item.parent)
          xmlAddChild(item.parent, made);
        else
          xmlDocSetRootElement(document.doc(), made);
        const int depth = item.depth + 1;
        xmlNodePtr children_parent = depth >= kMaxDepth && item.parent ? item.parent : made;
        // Pushed in reverse so they are popped, and appended, in document order.
        for (unsigned i = element.children.length; i-- > 0;) {
          stack.push_back({static_cast<const GumboNode*>(element.children.data[i]), children_parent,
                           std::min(depth, kMaxDepth)});
        }
        break;
      }
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        if (!item.parent) break;
        made = xmlNewDocText(document.doc(), x(node->v.text.text));
        // xmlAddChild merges adjacent text nodes, as the DOM's normalize() would.
        xmlAddChild(item.parent, made);
        break;
      case GUMBO_NODE_COMMENT:
        if (item.parent)
          xmlAddChild(item.parent, xmlNewDocComment(document.doc(), x(node->v.text.text)));
        break;
      case GUMBO_NODE_DOCUMENT: break;
    }
  }
  return document;
}

xmlNodePtr Document::root() const {
  return xmlDocGetRootElement(doc_.get());
}

xmlNodePtr Document::body() const {
  xmlNodePtr html = root();
  for (xmlNodePtr child : element_children(html)) {
    if (tag_of(child) == "body") return child;
  }
  return html;
}

XPathResult evaluate_xpath(const Document& doc, xmlNodePtr context, const std::string& xpath,
                           std::string* error, XPathBudget* budget) {
  XPathResult result;
  std::string message;
  ErrorCapture capture(&message);
  if (budget) {
    if (SteadyClock::now() >= budget->stop_at()) throw out_of_time();
    // libxml2 reads an opLimit of 0 as "no limit": an empty budget must refuse on its own.
    if (budget->steps_left() == 0) throw budget_exhausted(*budget);
  }
  xmlXPathContextPtr ctx = xmlXPathNewContext(doc.doc());
  if (!ctx) throw std::bad_alloc();
  ctx->node = context ? context : reinterpret_cast<xmlNodePtr>(doc.doc());
  std::uint64_t ticket = 0;
  if (budget) {
    ctx->opLimit = budget->steps_left();
    ticket = Watchdog::instance().watch(ctx, budget->stop_at());
  }
  xmlXPathObjectPtr object = xmlXPathEvalExpression(x(xpath.c_str()), ctx);
  if (budget) {
    const bool stopped = Watchdog::instance().release(ticket);
    const unsigned long used = ctx->opCount;
    const bool exhausted = used >= ctx->opLimit;
    budget->spend(stopped ? budget->steps_left() : used);
    if (stopped || exhausted) {
      if (object) xmlXPathFreeObject(object);
      xmlXPathFreeContext(ctx);
      throw stopped ? out_of_time() : budget_exhausted(*budget);
    }
  }
  if (!object) {
    if (error) *error = message.empty() ? "not a valid XPath expression" : message;
  } else {
    switch (object->type) {
      case XPATH_NODESET:
        if (object->nodesetval) {
          for (int i = 0; i < object->nodesetval->nodeNr; ++i) {
            result.nodes.push_back(object->nodesetval->nodeTab[i]);
          }
        }
        break;
      default: {
        result.scalar = true;
        xmlChar* value = xmlXPathCastToString(object);
        if (value) {
          result.value = c(value);
          xmlFree(value);
        }
      }
    }
    xmlXPathFreeObject(object);
  }
  xmlXPathFreeContext(ctx);
  return result;
}

std::string xpath_error(const std::string& xpath) {
  init_libxml();
  std::string message;
  ErrorCapture capture(&message);
  xmlXPathCompExprPtr compiled = xmlXPathCompile(x(xpath.c_str()));
  if (!compiled) return message.empty() ? "not a valid XPath expression" : message;
  xmlXPathFreeCompExpr(compiled);
  return {};
}

std::vector<xmlNodePtr> element_children(xmlNodePtr node) {
  std::vector<xmlNodePtr> out;
  if (!node) return out;
  for (xmlNodePtr child = node->children; child; child = child->next) {
    if (child->type == XML_ELEMENT_NODE) out.push_back(child);
  }
  return out;
}

std::string_view tag_of(xmlNodePtr node) {
  if (!node || node->type != XML_ELEMENT_NODE || !node->name) return {};
  return c(node->name);
}

std::string attribute(xmlNodePtr node, const char* name, bool* found) {
  if (found) *found = false;
  if (!node || node->type != XML_ELEMENT_NODE) return {};
  xmlChar* value = xmlGetProp(node, x(name));
  if (!value) return {};
  if (found) *found = true;
  std::string out = c(value);
  xmlFree(value);
  return out;
}

std::string text_content(xmlNodePtr node) {
  if (!node) return {};
  if (node->type == XML_ELEMENT_NODE) {
    std::string out;
    skip_script_text(node, out);
    return out;
  }
  xmlChar* value = xmlNodeGetContent(node);
  if (!value) return {};
  std::string out = c(value);
  xmlFree(value);
  return out;
}

std::string outer_html(const Document& doc, xmlNodePtr node) {
  if (!node) return {};
  if (node->type != XML_ELEMENT_NODE) return text_content(node);
  xmlOutputBufferPtr buffer = xmlAllocOutputBuffer(nullptr);
  if (!buffer) throw std::bad_alloc();
  // format 0: as the markup is, without the line breaks libxml2 would add between blocks.
  htmlNodeDumpFormatOutput(buffer, doc.doc(), node, "UTF-8", 0);
  xmlOutputBufferFlush(buffer);
  std::string out(c(xmlOutputBufferGetContent(buffer)), xmlOutputBufferGetSize(buffer));
  xmlOutputBufferClose(buffer);
  return out;
}

std::string collapse_whitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char ch : text) {
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return out;
}

}  // namespace gleaner::html
