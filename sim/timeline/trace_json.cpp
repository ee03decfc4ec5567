#include "sim/timeline/trace_json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "sim/harness/state_names.h"
#include "sim/timeline/timeline.h"

namespace baresm::timeline {

const Json* Json::get(const std::string& key) const {
  if (kind != OBJ) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &it->second;
}

namespace {

struct Parser {
  const std::string& s;
  size_t i = 0;
  std::string err;

  int line() const { return int(std::count(s.begin(), s.begin() + long(std::min(i, s.size())), '\n')) + 1; }
  bool fail(const std::string& why) {
    if (err.empty()) err = "line " + std::to_string(line()) + ": " + why;
    return false;
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  }
  bool lit(const char* w) {
    const size_t n = std::char_traits<char>::length(w);
    if (s.compare(i, n, w) != 0) return fail(std::string("expected ") + w);
    i += n;
    return true;
  }
  bool string(std::string* out) {
    if (i >= s.size() || s[i] != '"') return fail("expected a string");
    for (++i; i < s.size() && s[i] != '"'; ++i) {
      char c = s[i];
      if (c == '\\') {
        if (++i >= s.size()) break;
        switch (s[i]) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'u':  // kept as '?': the timeline's names are ASCII
            if (i + 4 >= s.size()) return fail("short \\u escape");
            i += 4;
            c = '?';
            break;
          default:
            c = s[i];
        }
      } else if (uint8_t(c) < 0x20) {
        return fail("control character in a string");
      }
      out->push_back(c);
    }
    if (i >= s.size()) return fail("unterminated string");
    ++i;
    return true;
  }
  bool value(Json* v, int depth) {
    if (depth > 64) return fail("nested too deeply");
    ws();
    if (i >= s.size()) return fail("unexpected end of input");
    const char c = s[i];
    if (c == '{') {
      v->kind = Json::OBJ;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') return ++i, true;
      for (;;) {
        ws();
        std::string key;
        if (!string(&key)) return false;
        ws();
        if (i >= s.size() || s[i] != ':') return fail("expected ':'");
        ++i;
        if (!value(&v->obj[key], depth + 1)) return false;
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}') return ++i, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v->kind = Json::ARR;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') return ++i, true;
      for (;;) {
        v->arr.emplace_back();
        if (!value(&v->arr.back(), depth + 1)) return false;
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') return ++i, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v->kind = Json::STR;
      return string(&v->str);
    }
    if (c == 't') return v->kind = Json::BOOL, v->b = true, lit("true");
    if (c == 'f') return v->kind = Json::BOOL, v->b = false, lit("false");
    if (c == 'n') return v->kind = Json::NUL, lit("null");
    const char* begin = s.c_str() + i;
    char* end = nullptr;
    v->num = std::strtod(begin, &end);
    if (end == begin || !(c == '-' || (c >= '0' && c <= '9'))) return fail("unexpected character");
    v->kind = Json::NUM;
    i += size_t(end - begin);
    return true;
  }
};

struct Reporter {
  std::vector<std::string> lines;
  size_t dropped = 0;
  void add(const std::string& l) {
    if (lines.size() < 20)
      lines.push_back(l);
    else
      ++dropped;
  }
};

bool whole(const Json* v) {
  return v && v->is_num() && v->num >= 0 && v->num == std::floor(v->num) && v->num < 1.8e19;
}

uint64_t u64(const Json* v) {
  return whole(v) ? uint64_t(v->num) : 0;
}

uint64_t grid_ctas(const Json* grid) {
  if (!grid || grid->kind != Json::ARR || grid->arr.size() != 3) return 0;
  return u64(&grid->arr[0]) * u64(&grid->arr[1]) * u64(&grid->arr[2]);
}

}  // namespace

bool parse_json(const std::string& text, Json* out, std::string* error) {
  Parser p{text, 0, ""};
  *out = Json{};
  bool ok = p.value(out, 0);
  if (ok) {
    p.ws();
    if (p.i != text.size()) ok = p.fail("text after the value");
  }
  if (!ok) *error = p.err;
  return ok;
}

std::vector<std::string> check_timeline(const Json& root, TimelineData* out) {
  Reporter r;
  TimelineData d;
  const Json* events = root.get("traceEvents");
  const Json* other = root.get("otherData");
  if (!events || events->kind != Json::ARR) return {"no traceEvents array"};
  const Json* slots = other ? other->get("warp_slots") : nullptr;
  if (!whole(slots) || slots->num > 1024) return {"otherData.warp_slots: missing or not a slot count"};
  d.slots = uint32_t(slots->num);
  const Json* names = other->get("warp_states");
  bool names_ok = names && names->kind == Json::ARR && names->arr.size() == size_t(sim::kNumWarpStates);
  for (int k = 0; names_ok && k < sim::kNumWarpStates; ++k)
    names_ok = names->arr[size_t(k)].str == sim::kWarpStateNames[k];
  if (!names_ok) r.add("otherData.warp_states is not the warp-state table (baresm_state_pkg::WS_*)");
  std::set<std::string> state_names(sim::kWarpStateNames, sim::kWarpStateNames + sim::kNumWarpStates);

  d.states.resize(d.slots);
  d.ctas.resize(d.slots);
  struct Place {
    uint64_t ts;
    std::string name;
  };
  std::vector<Place> places;
  std::vector<std::pair<uint64_t, const Json*>> mem;
  for (size_t n = 0; n < events->arr.size(); ++n) {
    const Json& e = events->arr[n];
    const std::string where = "event " + std::to_string(n);
    const Json *ph = e.get("ph"), *ts = e.get("ts"), *pid = e.get("pid"), *tid = e.get("tid"),
               *name = e.get("name"), *cat = e.get("cat");
    if (!ph || ph->kind != Json::STR || !whole(ts) || !whole(pid) || !whole(tid)) {
      r.add(where + ": needs ph (a string) and ts, pid, tid (whole numbers >= 0)");
      continue;
    }
    const std::string p = ph->str, nm = name && name->kind == Json::STR ? name->str : "";
    const std::string c = cat && cat->kind == Json::STR ? cat->str : "";
    if (p != "X" && p != "i" && p != "C" && p != "M") {
      r.add(where + ": phase '" + p + "' is not one the timeline writes (X, i, C, M)");
      continue;
    }
    if (p == "X" && !(whole(e.get("dur")) && e.get("dur")->num >= 1)) {
      r.add(where + " (" + nm + "): a complete event needs dur >= 1");
      continue;
    }
    const uint64_t t = u64(ts), dur = p == "X" ? u64(e.get("dur")) : 0;
    const uint64_t pd = u64(pid), td = u64(tid);
    if (p == "X" && c == "state") {
      if (!state_names.count(nm)) r.add(where + ": state '" + nm + "' is not in the warp-state table");
      if (pd != uint64_t(kPidSm) || td >= d.slots)
        r.add(where + ": a warp state outside the warp-slot tracks");
      else
        d.states[td].push_back(Span{t, dur, nm});
    } else if (p == "X" && c == "cta") {
      if (pd != uint64_t(kPidSm) || td >= d.slots)
        r.add(where + ": a CTA residency outside the warp-slot tracks");
      else
        d.ctas[td].push_back(Span{t, dur, nm});
    } else if (p == "X" && c == "sm" && nm == "launch") {
      d.sm_launches.push_back(Span{t, dur, nm});
      d.sm_launch_args.push_back(e.get("args"));
    } else if (p == "i" && c == "cta" && nm.rfind("place ", 0) == 0) {
      places.push_back(Place{t, nm.substr(6)});
    } else if (p == "i" && c == "barrier") {
      d.barrier_releases.push_back(t);
    } else if (p == "C" && nm == kMemCounter) {
      mem.emplace_back(t, e.get("args"));
    }
  }

  // SM launches, in time order, must not overlap.
  std::vector<size_t> order(d.sm_launches.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return d.sm_launches[a].start < d.sm_launches[b].start; });
  for (size_t k = 1; k < order.size(); ++k) {
    const Span &a = d.sm_launches[order[k - 1]], &b = d.sm_launches[order[k]];
    if (b.start < a.start + a.dur)
      r.add("SM launches at cycles " + std::to_string(a.start) + " and " + std::to_string(b.start) +
            " overlap");
  }
  // The launch whose [start, end) holds cycle t, or -1.
  auto launch_of = [&](uint64_t t) -> long {
    auto it = std::upper_bound(order.begin(), order.end(), t,
                               [&](uint64_t x, size_t k) { return x < d.sm_launches[k].start; });
    if (it == order.begin()) return -1;
    const Span& l = d.sm_launches[*(it - 1)];
    return t < l.start + l.dur ? long(*(it - 1)) : -1;
  };

  // Every cycle of every slot during a launch: exactly one state.
  std::vector<std::map<std::string, uint64_t>> per_launch(d.sm_launches.size());
  for (uint32_t w = 0; w < d.slots; ++w) {
    auto& v = d.states[w];
    std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    const std::string slot = "warp slot " + std::to_string(w);
    size_t i = 0;
    for (size_t k : order) {
      const Span& l = d.sm_launches[k];
      const uint64_t end = l.start + l.dur;
      for (; i < v.size() && v[i].start < l.start; ++i)
        r.add(slot + ": state " + v[i].name + " at cycle " + std::to_string(v[i].start) +
              " outside any SM launch");
      uint64_t expect = l.start;
      for (; i < v.size() && v[i].start < end; ++i) {
        if (v[i].start > expect)
          r.add(slot + ": cycles " + std::to_string(expect) + ".." + std::to_string(v[i].start - 1) +
                " have no state (gap)");
        else if (v[i].start < expect)
          r.add(slot + ": cycles " + std::to_string(v[i].start) + ".." + std::to_string(expect - 1) +
                " have two states (overlap)");
        expect = std::max(expect, v[i].start + v[i].dur);
        per_launch[k][v[i].name] += v[i].dur;
      }
      if (expect < end)
        r.add(slot + ": cycles " + std::to_string(expect) + ".." + std::to_string(end - 1) +
              " of the launch at cycle " + std::to_string(l.start) + " have no state (gap)");
      else if (expect > end)
        r.add(slot + ": a state runs past the end of the launch at cycle " + std::to_string(l.start) + " (" +
              std::to_string(end) + ")");
    }
    for (; i < v.size(); ++i)
      r.add(slot + ": state " + v[i].name + " at cycle " + std::to_string(v[i].start) +
            " outside any SM launch");
  }

  // Per launch: the tracks against the SM's own counters, and the CTAs
  // placed against the grid.
  std::vector<std::set<std::string>> cta_ids(d.sm_launches.size());
  for (uint32_t w = 0; w < d.slots; ++w) {
    auto& v = d.ctas[w];
    std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    for (size_t i = 0; i < v.size(); ++i) {
      const long k = launch_of(v[i].start);
      if (k < 0 || v[i].start + v[i].dur > d.sm_launches[size_t(k)].start + d.sm_launches[size_t(k)].dur) {
        r.add("warp slot " + std::to_string(w) + ": " + v[i].name + " at cycle " +
              std::to_string(v[i].start) + " is not inside an SM launch");
        continue;
      }
      if (i && v[i].start < v[i - 1].start + v[i - 1].dur)
        r.add("warp slot " + std::to_string(w) + ": two CTAs at once at cycle " + std::to_string(v[i].start));
      cta_ids[size_t(k)].insert(v[i].name);
    }
  }
  std::vector<uint64_t> placed(d.sm_launches.size());
  for (const Place& p : places) {
    const long k = launch_of(p.ts);
    if (k < 0)
      r.add("place " + p.name + " at cycle " + std::to_string(p.ts) + " outside any SM launch");
    else
      ++placed[size_t(k)];
  }
  for (size_t k = 0; k < d.sm_launches.size(); ++k) {
    const Json* a = d.sm_launch_args[k];
    const std::string at = "SM launch at cycle " + std::to_string(d.sm_launches[k].start);
    if (!a || !a->get("grid")) {
      r.add(at + ": no args.grid");
      continue;
    }
    const Json* counts = a->get("state_cycles");
    if (counts) {
      for (int s = 0; s < sim::kNumWarpStates; ++s) {
        const std::string nm = sim::kWarpStateNames[s];
        const uint64_t want = u64(counts->get(nm)), got = per_launch[k][nm];
        if (want != got)
          r.add(at + ": the tracks hold " + std::to_string(got) + " warp-cycles " + nm + ", the SM counted " +
                std::to_string(want));
      }
    }
    const Json* aborted = a->get("aborted");
    const bool complete =
        aborted && aborted->kind == Json::BOOL && !aborted->b && counts && u64(a->get("fault_kind")) == 0;
    if (!complete) continue;  // a fault or a reset stops the placing
    const uint64_t grid = grid_ctas(a->get("grid"));
    if (cta_ids[k].size() != grid)
      r.add(at + ": " + std::to_string(cta_ids[k].size()) + " CTAs held warp slots, the grid has " +
            std::to_string(grid));
    if (placed[k] != grid)
      r.add(at + ": " + std::to_string(placed[k]) + " CTA placements, the grid has " + std::to_string(grid));
    if (u64(a->get("ctas_retired")) != grid)
      r.add(at + ": the SM retired " + std::to_string(u64(a->get("ctas_retired"))) + " CTAs, the grid has " +
            std::to_string(grid));
  }

  // Memory in flight: never negative, and nothing left at the end.
  std::stable_sort(mem.begin(), mem.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [t, args] : mem) {
    const Json *sm = args ? args->get("sm") : nullptr, *cp = args ? args->get("cp") : nullptr;
    if (!sm || !cp || !sm->is_num() || !cp->is_num()) {
      r.add(std::string(kMemCounter) + " at cycle " + std::to_string(t) + ": needs args sm and cp");
      continue;
    }
    if (sm->num < 0 || cp->num < 0)
      r.add(std::string(kMemCounter) + " at cycle " + std::to_string(t) + " is negative");
    d.mem.emplace_back(t, int64_t(sm->num + cp->num));
  }
  if (!d.mem.empty() && d.mem.back().second != 0)
    r.add(std::string(kMemCounter) + " ends at " + std::to_string(d.mem.back().second) + ", not 0");

  if (r.dropped) r.lines.push_back("... and " + std::to_string(r.dropped) + " more");
  if (out) *out = std::move(d);
  return r.lines;
}

}  // namespace baresm::timeline
