#include "coordinator/daemon/journaled_job.h"

#include "coordinator/json/input.h"

#include <algorithm>

namespace baton::coordinator {
namespace {

// The job's spec and its total bytes, when its journaled request still parses.
void read_spec(TrackedJob& job, const journal::JobRecord& record) {
  try {
    job.spec = parse_job_spec(record.spec);
    for (const jobs::TransferSpec& t : job.spec->transfers) job.bytes_total += t.length;
  } catch (const std::exception&) {
    // shown without senders, receivers or algorithm
  }
}

void read_steps(journal::Store& journal, TrackedJob& job) {
  for (const journal::StepRecord& s : journal.steps(job.id)) {
    if (s.finished.empty()) continue;
    job.steps.push_back(s);
    job.bytes_done += s.bytes;
  }
}

std::unique_ptr<TrackedJob> job_of(const journal::JobRecord& record, JobState state) {
  auto job = std::make_unique<TrackedJob>();
  job->id = record.id;
  job->submitted = record.submitted;
  job->state = state;
  job->error = record.error;
  return job;
}

}  // namespace

std::unique_ptr<TrackedJob> ended_job(journal::Store& journal, const journal::JobRecord& record, JobState state,
                                      const log::Logger& log) {
  auto job = job_of(record, state);
  if (!record.report.empty()) {
    try {
      job->journaled_view = report::parse_job_report(json::parse_document(record.report));
    } catch (const json::InputError& e) {
      if (log) {
        log.info("job " + std::to_string(record.id) + ": the journal's report does not parse (" + e.what() +
                 "); showing its record");
      }
    }
  }
  if (!job->journaled_view) {  // a journal of schema 1: the record and its steps
    read_spec(*job, record);
    read_steps(journal, *job);
  }
  return job;
}

std::unique_ptr<TrackedJob> unfinished_job(journal::Store& journal, const journal::JobRecord& record, JobState state) {
  auto job = job_of(record, state);
  read_spec(*job, record);
  read_steps(journal, *job);
  for (const journal::StepRecord& s : job->steps) job->resume_from = std::max(job->resume_from, s.step + 1);
  job->step = job->resume_from;
  return job;
}

}  // namespace baton::coordinator
