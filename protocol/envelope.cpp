#include "protocol/envelope.h"

namespace baton::protocol {

std::string encode(Envelope envelope) {
  envelope.set_version(kProtocolVersion);
  return envelope.SerializeAsString();
}

Envelope decode(std::string_view payload) {
  Envelope envelope;
  if (!envelope.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    throw ProtocolError("not a Baton message (" + std::to_string(payload.size()) + " bytes that do not parse)");
  }
  if (envelope.version() != kProtocolVersion) {
    throw ProtocolError("protocol version " + std::to_string(envelope.version()) +
                        " is not supported (this build speaks version " + std::to_string(kProtocolVersion) + ")");
  }
  if (envelope.body_case() == Envelope::BODY_NOT_SET) {
    throw ProtocolError("unknown message type (a newer peer, or an empty message)");
  }
  return envelope;
}

std::string_view type_name(const Envelope& envelope) {
  switch (envelope.body_case()) {
    case Envelope::kHello: return "hello";
    case Envelope::kProof: return "proof";
    case Envelope::kRegister: return "register";
    case Envelope::kHeartbeat: return "heartbeat";
    case Envelope::kPlan: return "plan";
    case Envelope::kPlanAccepted: return "plan_accepted";
    case Envelope::kStepRelease: return "step_release";
    case Envelope::kStepReport: return "step_report";
    case Envelope::kAbort: return "abort";
    case Envelope::kRefusal: return "refusal";
    case Envelope::kRegistered: return "registered";
    case Envelope::kPlanRefused: return "plan_refused";
    case Envelope::kJobStatus: return "job_status";
    case Envelope::kJobEnded: return "job_ended";
    case Envelope::kStepCancel: return "step_cancel";
    case Envelope::kJobCommitted: return "job_committed";
    case Envelope::kStepProgress: return "step_progress";
    case Envelope::kObjectQuery: return "object_query";
    case Envelope::kObjectAnswer: return "object_answer";
    case Envelope::kStepPassed: return "step_passed";
    case Envelope::kExchangeReport: return "exchange_report";
    case Envelope::BODY_NOT_SET: break;
  }
  return "unknown";
}

}  // namespace baton::protocol
