#include <memory>

#include "api/openapi.h"
#include "api/routes/routes.h"

namespace gleaner::api {

void add_openapi_routes(Router& router) {
  // Built once: the declarations it reads do not change while the process runs.
  // Raw, not a JSON body: the document is not an answer and carries no requestMetadata envelope.
  auto document = std::make_shared<const std::string>(openapi_document().dump(2) + "\n");
  // No key: the document tells nothing an unauthenticated caller cannot learn from the 400s.
  router.add("GET", "/openapi.json",
             [document](Request&) { return Response::raw(*document, "application/json"); });
}

}  // namespace gleaner::api
