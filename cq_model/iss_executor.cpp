// The ISS executor (iss_executor.h). The model runs on its own stack (a
// ucontext coroutine): the retire callback switches back to the tick after
// every `budget` warp-instructions, and the next step() switches in again.
// Single-threaded, so deterministic and cheap (a switch is a few hundred ns);
// an abort resumes the coroutine with a flag that makes the callback throw,
// unwinding the model on its own stack.
#include "cq_model/iss_executor.h"

#include <ucontext.h>

#include <exception>
#include <string>
#include <vector>

namespace baresm::cq {

namespace {

class IssExecutor final : public LaunchExecutor {
 public:
  IssExecutor(iss::DeviceMemory& mem, const iss::ModelConfig& cfg) : model_(mem, cfg), stack_(kStackBytes) {
    model_.set_retire_callback([this](const iss::RetireEvent& ev) { on_retire(ev); });
  }
  ~IssExecutor() override { abort(); }
  IssExecutor(const IssExecutor&) = delete;
  IssExecutor& operator=(const IssExecutor&) = delete;

  void start(const iss::LaunchParams& p) override {
    params_ = p;
    out_ = LaunchOutcome{};
    retired_ = cta_switches_ = 0;
    have_cta_ = false;
    state_ = READY;
  }

  bool step(uint32_t budget) override {
    if (state_ == DONE) return true;
    if (state_ != READY && state_ != PAUSED) return false;
    credit_ = budget ? budget : 1;
    if (state_ == READY) {
      getcontext(&run_ctx_);
      run_ctx_.uc_stack.ss_sp = stack_.data();
      run_ctx_.uc_stack.ss_size = stack_.size();
      run_ctx_.uc_link = nullptr;
      const uintptr_t self = reinterpret_cast<uintptr_t>(this);
      makecontext(&run_ctx_, reinterpret_cast<void (*)()>(&IssExecutor::trampoline), 2, unsigned(self >> 32),
                  unsigned(self & 0xFFFFFFFFu));
    }
    state_ = RUNNING;
    swapcontext(&host_ctx_, &run_ctx_);
    return state_ == DONE;
  }

  void abort() override {
    if (state_ == PAUSED) {
      abort_req_ = true;
      state_ = RUNNING;
      swapcontext(&host_ctx_, &run_ctx_);  // the callback throws; the model unwinds
      abort_req_ = false;
    }
    state_ = IDLE;
  }

  const LaunchOutcome& outcome() const override { return out_; }
  uint64_t retired() const override { return retired_; }
  uint64_t cta_switches() const override { return cta_switches_; }

 private:
  enum State { IDLE, READY, RUNNING, PAUSED, DONE };
  struct Abort {};  // thrown from the retire callback to unwind the model
  static constexpr size_t kStackBytes = 1u << 20;

  static void trampoline(unsigned hi, unsigned lo) {
    reinterpret_cast<IssExecutor*>((uintptr_t(hi) << 32) | uintptr_t(lo))->body();
  }

  // Runs on the coroutine's stack; never returns (the context is abandoned
  // at DONE and rebuilt by the next start()).
  void body() {
    try {
      out_.result = model_.run(params_);
    } catch (const Abort&) {
      out_.result = iss::LaunchResult{};
    } catch (const std::exception& e) {
      out_.internal_error = true;
      out_.internal_message = e.what();
    }
    if (out_.result.launch_error && !out_.internal_error) {
      out_.internal_error = true;
      out_.internal_message = "the model refused the launch: " + out_.result.launch_error_message;
    }
    state_ = DONE;
    swapcontext(&run_ctx_, &host_ctx_);
  }

  void on_retire(const iss::RetireEvent& ev) {
    ++retired_;
    const isa::Op op = ev.instr.op;
    if (op == isa::Op::LDS || op == isa::Op::STS || op == isa::Op::ATOMS) ++out_.shared_passes;
    if (!have_cta_) {
      have_cta_ = true;
      cta_ = ev.cta_linear;
    } else if (ev.cta_linear != cta_) {
      cta_ = ev.cta_linear;
      ++cta_switches_;  // CTAs run in order: the previous one retired
    }
    if (--credit_ > 0) return;
    state_ = PAUSED;
    swapcontext(&run_ctx_, &host_ctx_);
    if (abort_req_) throw Abort{};
  }

  iss::FunctionalModel model_;
  std::vector<char> stack_;
  ucontext_t host_ctx_{}, run_ctx_{};
  State state_ = IDLE;
  bool abort_req_ = false;
  iss::LaunchParams params_;
  LaunchOutcome out_;
  uint32_t credit_ = 0;
  uint64_t retired_ = 0, cta_switches_ = 0;
  bool have_cta_ = false;
  uint32_t cta_ = 0;
};

}  // namespace

std::unique_ptr<LaunchExecutor> make_iss_executor(iss::DeviceMemory& mem, const iss::ModelConfig& cfg) {
  return std::make_unique<IssExecutor>(mem, cfg);
}

}  // namespace baresm::cq
