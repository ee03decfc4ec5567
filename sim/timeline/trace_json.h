// Reading a timeline back: a small JSON parser, the checker of the trace
// files `--timeline` writes, and the tracks the picture is drawn from.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace baresm::timeline {

struct Json {
  enum Kind { NUL, BOOL, NUM, STR, ARR, OBJ } kind = NUL;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::map<std::string, Json> obj;

  const Json* get(const std::string& key) const;  // nullptr unless an object with key
  bool is_num() const { return kind == NUM; }
};

// Parses `text`; false with *error = "line L: why" on malformed JSON.
bool parse_json(const std::string& text, Json* out, std::string* error);

// One interval of a track: [start, start+dur).
struct Span {
  uint64_t start = 0, dur = 0;
  std::string name;
};

// What a timeline file holds, by track.
struct TimelineData {
  uint32_t slots = 0;
  std::vector<std::vector<Span>> states;  // per warp slot, sorted by start
  std::vector<std::vector<Span>> ctas;    // per warp slot: the CTA it holds
  std::vector<Span> sm_launches;
  std::vector<const Json*> sm_launch_args;
  std::vector<std::pair<uint64_t, int64_t>> mem;  // memory in flight (sm + cp) from a cycle on
  std::vector<uint64_t> barrier_releases;
};

// The checks of docs/timeline.md. Returns every problem found, one line
// each (empty: the file is a valid timeline); fills *data when non-null.
std::vector<std::string> check_timeline(const Json& root, TimelineData* data = nullptr);

}  // namespace baresm::timeline
