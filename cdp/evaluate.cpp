#include "cdp/evaluate.h"

namespace gleaner::cdp {

bool context_went_away(const Error& e) {
  const std::string& detail = e.detail();
  return e.kind() == ErrorKind::Protocol &&
         (detail.find("context was destroyed") != std::string::npos ||
          detail.find("Cannot find context") != std::string::npos ||
          detail.find("Cannot find default execution context") != std::string::npos);
}

Json evaluate_isolated(Session& session, const std::string& expression, Deadline deadline,
                       const std::string& frame_id) {
  for (bool again = true;; again = false) {
    const std::string frame = frame_id.empty()
                                  ? session.call("Page.getFrameTree", Json::object(), deadline)
                                        .at("frameTree")
                                        .at("frame")
                                        .at("id")
                                        .get<std::string>()
                                  : frame_id;
    const Json world = session.call("Page.createIsolatedWorld",
                                    {{"frameId", frame}, {"worldName", "gleaner"}}, deadline);
    try {
      return session.call("Runtime.evaluate",
                          {{"expression", expression},
                           {"contextId", world.at("executionContextId")},
                           {"awaitPromise", true},
                           {"returnByValue", true}},
                          deadline);
    } catch (const Error& e) {
      if (!again || !context_went_away(e)) throw;
    }
  }
}

}  // namespace gleaner::cdp
