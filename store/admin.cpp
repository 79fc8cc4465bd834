#include "store/admin.h"

#include <charconv>
#include <ctime>
#include <functional>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/config.h"
#include "core/error.h"

namespace gleaner::store {
namespace {

/// A command line that cannot be run as written: exit status 2 with the usage text.
struct UsageError {
  std::string message;
};

/// `--name value` and `--name=value` options after the command's two words.
class Options {
 public:
  /// `positional` words come first (e.g. the job id of `jobs stop ID`), then the options.
  Options(const std::vector<std::string>& args, std::size_t first,
          const std::set<std::string, std::less<>>& allowed, std::size_t positional = 0) {
    for (std::size_t i = first; i < first + positional; ++i) {
      if (i >= args.size() || args[i].rfind("--", 0) == 0) {
        throw UsageError{"the command needs " + std::to_string(positional) + " argument(s)"};
      }
      positional_.push_back(args[i]);
    }
    for (std::size_t i = first + positional; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg.rfind("--", 0) != 0) throw UsageError{"unexpected argument '" + arg + "'"};
      std::string name = arg.substr(2);
      std::string value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw UsageError{"--" + name + " needs a value"};
      }
      if (!allowed.contains(name)) throw UsageError{"unknown option --" + name};
      if (!values_.emplace(name, value).second) throw UsageError{"--" + name + " given twice"};
    }
  }

  bool has(const std::string& name) const { return values_.contains(name); }

  const std::string& positional(std::size_t i) const { return positional_.at(i); }

  std::string text(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw UsageError{"--" + name + " is required"};
    if (it->second.empty()) throw UsageError{"--" + name + " must not be empty"};
    return it->second;
  }

  std::int64_t number(const std::string& name) const {
    const std::string value = text(name);
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size()) {
      throw UsageError{"--" + name + " must be a whole number, got '" + value + "'"};
    }
    return n;
  }

  std::optional<std::int64_t> optional_number(const std::string& name) const {
    if (!has(name)) return std::nullopt;
    return number(name);
  }

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::vector<std::string> positional_;
};

std::string format_utc(TimePoint t) {
  const std::time_t seconds = static_cast<std::time_t>(to_unix_seconds(t));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

std::string describe(const Account& a) {
  std::ostringstream out;
  out << "account " << a.id << " name=" << std::quoted(a.name) << " balance=" << a.balance
      << " allowance=" << a.allowance << " period_days=" << a.period_days
      << " period_end=" << format_utc(a.period_end) << " concurrency="
      << (a.concurrency_limit ? std::to_string(*a.concurrency_limit) : std::string("default"));
  return out.str();
}

std::string describe(const ApiKeyInfo& k) {
  std::ostringstream out;
  out << "key " << k.id << " account=" << k.account_id << " prefix=" << k.prefix
      << " created=" << format_utc(k.created_at)
      << " status=" << (k.revoked_at ? "revoked " + format_utc(*k.revoked_at) : "active");
  return out.str();
}

std::string describe(const JobListing& l) {
  const Job& j = l.job;
  std::ostringstream out;
  out << "job " << j.id << " account=" << j.account_id << " kind=" << j.kind
      << " status=" << j.status;
  if (j.stop_reason) out << " reason=" << *j.stop_reason;
  if (j.stop_requested && !j.done()) out << " stop_requested=yes";
  out << " rows=" << j.rows_count << " credits=" << j.credits_spent;
  if (j.by_frontier) {
    const auto failed =
        j.progress.is_object() ? j.progress.value("pagesFailed", std::int64_t{0}) : 0;
    out << " pages_found=" << j.frontier_size << " pages_failed=" << failed
        << " leased_pages=" << l.leased_entries;
    // Only that node runs it (a batch in a session): a job that waits for a node gone for good
    // is stopped by `gleaner jobs stop`.
    if (j.pinned_node) out << " pinned_to=" << *j.pinned_node;
  }
  out << " created=" << format_utc(j.created_at);
  if (j.finished_at) out << " finished=" << format_utc(*j.finished_at);
  if (l.lease_owner) {
    out << " leased_by=" << *l.lease_owner;
    if (l.lease_expires_at) out << " lease_until=" << format_utc(*l.lease_expires_at);
  }
  return out.str();
}

/// The secret goes alone on the last line, so scripts can take it with `tail -n 1`.
void print_new_key(const CreatedKey& key, std::ostream& out) {
  out << describe(key.info) << "\n"
      << "API key (shown only this once; the store keeps only its hash):\n"
      << key.key << "\n";
}

struct Command {
  std::set<std::string, std::less<>> options;
  std::function<int(const Options&, Store&, std::ostream&, std::ostream&)> run;
};

const std::map<std::string, Command, std::less<>>& commands() {
  static const std::map<std::string, Command, std::less<>> table = {
      {"accounts create",
       {{"name", "credits", "period-days", "concurrency"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream&) {
          NewAccount account;
          account.name = o.text("name");
          account.allowance = o.number("credits");
          account.period_days = o.optional_number("period-days").value_or(account.period_days);
          account.concurrency_limit = o.optional_number("concurrency");
          CreatedAccount created = store.create_account(account);
          out << "created " << describe(created.account) << "\n";
          print_new_key(created.key, out);
          return 0;
        }}},
      {"accounts list",
       {{},
        [](const Options&, Store& store, std::ostream& out, std::ostream&) {
          for (const Account& a : store.list_accounts()) out << describe(a) << "\n";
          return 0;
        }}},
      {"accounts show",
       {{"account"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream&) {
          AccountView view = store.account_view(o.number("account"));
          out << describe(view.account) << "\n";
          for (const EndpointUsage& u : view.usage) {
            out << "usage endpoint=" << u.endpoint << " requests=" << u.requests
                << " credits=" << u.credits << "\n";
          }
          return 0;
        }}},
      {"keys create",
       {{"account"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream&) {
          print_new_key(store.create_key(o.number("account")), out);
          return 0;
        }}},
      {"keys list",
       {{"account"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream&) {
          for (const ApiKeyInfo& k : store.list_keys(o.number("account"))) {
            out << describe(k) << "\n";
          }
          return 0;
        }}},
      {"keys revoke",
       {{"key-prefix", "key-id"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream& err) {
          if (o.has("key-prefix") == o.has("key-id")) {
            throw UsageError{"give either --key-prefix or --key-id"};
          }
          std::int64_t key_id = 0;
          if (o.has("key-id")) {
            key_id = o.number("key-id");
          } else {
            const std::string prefix = o.text("key-prefix");
            auto keys = store.find_keys_by_prefix(prefix);
            if (keys.size() != 1) {
              err << "gleaner: " << keys.size() << " keys start with " << prefix
                  << (keys.empty() ? "" : "; give a longer prefix or --key-id") << "\n";
              for (const ApiKeyInfo& k : keys) err << describe(k) << "\n";
              return 1;
            }
            key_id = keys.front().id;
          }
          if (!store.revoke_key(key_id)) {
            err << "gleaner: key " << key_id << " does not exist or is already revoked\n";
            return 1;
          }
          out << "revoked key " << key_id << "\n";
          return 0;
        }}},
      {"credits add",
       {{"account", "credits"},
        [](const Options& o, Store& store, std::ostream& out, std::ostream&) {
          Account a = store.add_credits(o.number("account"), o.number("credits"));
          out << describe(a) << "\n";
          return 0;
        }}},
  };
  return table;
}

/// The reason of a job the operator stopped (`gleaner jobs stop`).
constexpr const char* kStoppedByOperator = "stopped_by_operator";

struct JobCommand {
  std::set<std::string, std::less<>> options;
  std::size_t positional = 0;
  std::function<int(const Options&, JobsAdmin&, std::ostream&, std::ostream&)> run;
};

const std::map<std::string, JobCommand, std::less<>>& job_commands() {
  static const std::map<std::string, JobCommand, std::less<>> table = {
      {"jobs list",
       {{"account", "state", "limit"},
        0,
        [](const Options& o, JobsAdmin& admin, std::ostream& out, std::ostream&) {
          std::optional<std::string> state;
          if (o.has("state")) {
            state = o.text("state");
            const std::set<std::string, std::less<>> states = {
                job_status::kPending, job_status::kInProgress, job_status::kFinished,
                job_status::kStopped, job_status::kFailed};
            if (!states.contains(*state)) {
              throw UsageError{"--state is one of pending, in_progress, finished, stopped, failed"};
            }
          }
          const std::int64_t limit = o.optional_number("limit").value_or(100);
          if (limit < 1) throw UsageError{"--limit must be at least 1"};
          for (const JobListing& l :
               admin.jobs.list_all_jobs(o.optional_number("account"), state, limit)) {
            out << describe(l) << "\n";
          }
          return 0;
        }}},
      {"jobs stop",
       {{},
        1,
        [](const Options& o, JobsAdmin& admin, std::ostream& out, std::ostream& err) {
          const std::string& id = o.positional(0);
          const auto before = admin.jobs.job(id);
          if (!before) {
            err << "gleaner: no job " << id << "\n";
            return 1;
          }
          if (before->done()) {
            out << "job " << id << " had ended already (" << before->status << ")\n";
            return 0;
          }
          const auto stopped = admin.jobs.stop_now(id, kStoppedByOperator, admin.finished_body);
          out << "stopped " << describe(JobListing{*stopped, std::nullopt, std::nullopt, 0})
              << "\n";
          return 0;
        }}},
  };
  return table;
}

}  // namespace

std::string admin_usage() {
  return "usage:\n"
         "  gleaner accounts create --name NAME --credits CREDITS_PER_PERIOD\n"
         "                          [--period-days DAYS (30)] [--concurrency LIMIT]\n"
         "  gleaner accounts list\n"
         "  gleaner accounts show --account ID\n"
         "  gleaner keys create --account ID\n"
         "  gleaner keys list --account ID\n"
         "  gleaner keys revoke (--key-prefix PREFIX | --key-id ID)\n"
         "  gleaner credits add --account ID --credits CREDITS\n"
         "  gleaner jobs list [--account ID] [--state "
         "pending|in_progress|finished|stopped|failed]\n"
         "                    [--limit N (100)]\n"
         "  gleaner jobs stop JOB_ID\n"
         "New keys are printed alone on the last line. The commands work on the store configured\n"
         "by entry `store` (GLEANER_STORE), whether or not the service runs.\n";
}

int run_admin_command(const std::vector<std::string>& args, Store& store, std::ostream& out,
                      std::ostream& err, JobsAdmin* jobs) {
  try {
    if (args.size() < 2) throw UsageError{"name a command"};
    if (auto job = job_commands().find(args[0] + " " + args[1]); job != job_commands().end()) {
      if (!jobs) throw UsageError{"the jobs commands need the job tables"};
      Options options(args, 2, job->second.options, job->second.positional);
      return job->second.run(options, *jobs, out, err);
    }
    auto it = commands().find(args[0] + " " + args[1]);
    if (it == commands().end()) {
      throw UsageError{"unknown command '" + args[0] + " " + args[1] + "'"};
    }
    Options options(args, 2, it->second.options);
    return it->second.run(options, store, out, err);
  } catch (const UsageError& e) {
    err << "gleaner: " << e.message << "\n" << admin_usage();
    return 2;
  } catch (const Error& e) {
    err << "gleaner: " << e.what();
    if (e.parameter()) err << " (" << *e.parameter() << ")";
    if (!e.detail().empty()) err << ": " << e.detail();
    err << "\n";
    return 1;
  }
}

bool bootstrap_first_account(Store& store, const Config& config, std::ostream& out) {
  NewAccount account;
  account.name = "default";
  account.allowance = config.get_int("default_credits", 10000);
  account.period_days = config.get_int("default_period_days", 30);
  if (account.allowance < 0) Config::refuse("default_credits", "must be 0 or more");
  if (account.period_days < 1) Config::refuse("default_period_days", "must be at least 1");
  auto created = store.create_first_account(account);
  if (!created) return false;
  out << "gleaner: the store was empty, so it now has " << describe(created->account) << "\n";
  print_new_key(created->key, out);
  return true;
}

}  // namespace gleaner::store
