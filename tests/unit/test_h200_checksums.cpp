// The CUDA samples on the functional model, from nvcc's PTX, must leave
// byte for byte what the same kernels left on an NVIDIA H200: their output
// checksums (samples/checksum.h) equal tests/data/h200_checksums.txt, which
// is the output of tools/h200/run_cuda on the H200 (seed 1; docs/ptx.md).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host_driver/devices.h"
#include "samples/samples.h"

using namespace baresm::samples;

namespace {

// The functional device model, opened by the driver.
std::unique_ptr<baresm::drv::OpenDevice> model_device(const baresm::cq::ModelDeviceConfig& cfg = {}) {
  std::string error;
  auto d = baresm::drv::open_model_device(cfg, &error);
  EXPECT_TRUE(d) << error;
  return d;
}
struct Row {
  std::string name;
  uint64_t checksum = 0, bytes = 0;
  std::string verdict;
};

std::vector<Row> load_table(const char* file) {
  std::vector<Row> rows;
  std::ifstream f(std::string(BARESM_SOURCE_DIR "/tests/data/") + file);
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Row r;
    std::string sum;
    ss >> r.name >> sum >> r.bytes >> r.verdict;
    r.checksum = std::stoull(sum, nullptr, 16);
    rows.push_back(r);
  }
  return rows;
}
// Measured on the H200, and (h200_pending.txt) the samples added since the
// last H200 run, with the model's checksum that run must print.
std::vector<Row> measured() { return load_table("h200_checksums.txt"); }
std::vector<Row> pending() { return load_table("h200_pending.txt"); }
}  // namespace

TEST(H200Checksums, TableCoversEveryCudaSample) {
  std::vector<Row> rows = measured();
  const std::vector<Row> later = pending();
  rows.insert(rows.end(), later.begin(), later.end());
  std::vector<std::string> want;
  for (const auto& s : all_samples())
    if (!s.cuda_file.empty()) want.push_back(s.name);
  for (const auto& s : cuda_only_samples()) want.push_back(s.name);
  ASSERT_EQ(rows.size(), want.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].name, want[i]);
    EXPECT_EQ(rows[i].verdict, i < rows.size() - later.size() ? "PASS" : "PENDING")
        << rows[i].name << ": PASS on the H200, or PENDING until it has run there";
  }
}

TEST(H200Checksums, ModelMatchesH200) {
  std::vector<Row> rows = measured();
  const std::vector<Row> later = pending();  // pinned to the model until the H200 confirms them
  rows.insert(rows.end(), later.begin(), later.end());
  for (const Row& row : rows) {
    const Sample* s = find_sample(row.name);
    ASSERT_NE(s, nullptr) << row.name;
    RunOptions o;
    o.kernels_dir = BARESM_SOURCE_DIR "/kernels";
    o.seed = 1;
    o.source = KernelSource::CUDA;
    auto d = model_device();
    const SampleResult r = run_sample(*s, d->device, o);
    EXPECT_TRUE(r.passed) << row.name << ": " << r.message;
    EXPECT_EQ(r.checksum_bytes, row.bytes) << row.name;
    EXPECT_EQ(r.checksum, row.checksum) << row.name << ": model 0x" << std::hex << r.checksum << ", H200 0x"
                                        << row.checksum;
  }
}
