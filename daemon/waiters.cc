#include "waiters.h"

#include <algorithm>

#include "compile_regex.h"

namespace tuidriver {
namespace {

constexpr size_t kMaxSeen = 1 << 20;  // expect keeps the last 1 MiB of output
constexpr long kDefaultTimeoutMs = 30000;

}  // namespace

long Waiters::TimeoutMs(const Request& r) {
  return r.timeout_ms > 0 ? r.timeout_ms : kDefaultTimeoutMs;
}

bool Waiters::AddExpect(const Request& r, TimePoint now, std::string* err) {
  Waiter w;
  w.pattern = CompileRegex(r.pattern, err);
  if (!w.pattern) return false;
  w.id = r.id;
  w.output_only = r.output_only;
  w.received = now;
  w.timeout_ms = TimeoutMs(r);
  w.deadline = now + std::chrono::milliseconds(w.timeout_ms);
  waiters_.push_back(std::move(w));
  return true;
}

void Waiters::AddWaitIdle(const Request& r, TimePoint now) {
  Waiter w;
  w.id = r.id;
  w.idle_ms = r.idle_ms;
  w.received = now;
  w.timeout_ms = TimeoutMs(r);
  w.deadline = now + std::chrono::milliseconds(w.timeout_ms);
  waiters_.push_back(std::move(w));
}

void Waiters::OnOutput(const std::string& text, TimePoint now) {
  last_output_ = now;
  for (Waiter& w : waiters_) {
    if (!w.pattern) continue;
    w.seen += text;
    if (w.seen.size() > kMaxSeen) w.seen.erase(0, w.seen.size() - kMaxSeen);
  }
}

TimePoint Waiters::IdleDue(const Waiter& w) const {
  return std::max(last_output_, w.received) + std::chrono::milliseconds(w.idle_ms);
}

bool Waiters::Match(const Waiter& w, const std::string& screen, JsonObject* fields) const {
  int groups = w.pattern->NumberOfCapturingGroups();
  std::vector<re2::StringPiece> m(static_cast<size_t>(groups) + 1);
  bool hit = false;
  const std::string* hays[] = {&screen, &w.seen};
  for (const std::string* hay : hays) {
    if (hay == &screen && w.output_only) continue;
    hit = w.pattern->Match(*hay, 0, hay->size(), RE2::UNANCHORED, m.data(), groups + 1);
    if (hit) break;
  }
  if (!hit) return false;
  std::vector<std::string> g;
  for (size_t k = 1; k < m.size(); ++k) g.emplace_back(m[k].data() ? std::string(m[k]) : "");
  fields->Add("match", std::string(m[0])).AddStringArray("groups", g);
  return true;
}

std::vector<Waiters::Outcome> Waiters::Update(const std::function<std::string()>& screen, TimePoint now) {
  std::vector<Outcome> out;
  std::string text;
  bool have_text = false;
  for (size_t i = 0; i < waiters_.size();) {
    Waiter& w = waiters_[i];
    Outcome o;
    o.id = w.id;
    o.timeout_ms = w.timeout_ms;
    if (w.pattern) {
      if (!have_text) text = screen();
      have_text = true;
      o.met = Match(w, text, &o.fields);
    } else if (now >= IdleDue(w)) {
      o.met = true;
      o.fields.Add("idle_ms", static_cast<int64_t>(w.idle_ms));
    }
    if (o.met || now >= w.deadline) {
      out.push_back(std::move(o));
      waiters_.erase(waiters_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  return out;
}

TimePoint Waiters::next_wakeup() const {
  TimePoint wake = TimePoint::max();
  for (const Waiter& w : waiters_) {
    wake = std::min(wake, w.deadline);
    if (!w.pattern) wake = std::min(wake, IdleDue(w));
  }
  return wake;
}

std::vector<RequestId> Waiters::TakeAll() {
  std::vector<RequestId> ids;
  for (const Waiter& w : waiters_) ids.push_back(w.id);
  waiters_.clear();
  return ids;
}

bool Waiters::Remove(const RequestId& id) {
  auto it = std::find_if(waiters_.begin(), waiters_.end(), [&](const Waiter& w) { return w.id == id; });
  if (it == waiters_.end()) return false;
  waiters_.erase(it);
  return true;
}

bool Waiters::Has(const RequestId& id) const {
  return std::any_of(waiters_.begin(), waiters_.end(), [&](const Waiter& w) { return w.id == id; });
}

}  // namespace tuidriver
