#include "agent/object_query.h"

#include "agent/scratch.h"

namespace baton::agent {

protocol::ObjectAnswer answer(const protocol::ObjectQuery& query, Storage& storage) {
  protocol::ObjectAnswer answer;
  answer.set_query(query.query());
  if (query.objects_size() > max_queried_objects) {
    answer.add_objects()->set_error("a query may name at most " + std::to_string(max_queried_objects) +
                                    " objects, this one names " + std::to_string(query.objects_size()));
    return answer;
  }
  for (const std::string& name : query.objects()) {
    protocol::ObjectInfo* info = answer.add_objects();
    info->set_object(name);
    ObjectStatus status;
    if (is_scratch(name)) {
      status.error = name + ": a scratch object belongs to the job that writes it";
    } else {
      try {
        status = storage.status(name);
      } catch (const std::exception& e) {
        status.error = e.what();
      }
    }
    info->set_exists(status.exists);
    info->set_size(status.size);
    info->set_error(status.error);
    info->set_identity(status.identity);
  }
  return answer;
}

}  // namespace baton::agent
