// InteractiveSession (interp.h): the REPL's interpreter. Inputs run in one
// set of globals; a top-level expression statement's value is echoed with
// repr() and bound to builtins `_` (Python's sys.displayhook), None is not.
#include "runtime/interp/eval.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tensor/allocator.h"

#include <cstdio>

namespace tfs::runtime {

struct InteractiveSession::State {
  explicit State(const RunOptions &options) : in(options) {}
  Interpreter in;
  Ref<Scope> globals = make<Scope>();
  std::vector<std::shared_ptr<const ast::Module>> inputs;  // their ASTs stay alive
  PhaseTimer *runTimer = nullptr;
};

InteractiveSession::InteractiveSession(const RunOptions &options) {
  installInterruptHandler();
  setMemoryLimit(options.maxMemoryBytes > 0 ? options.maxMemoryBytes : defaultMemoryLimit());
  state_ = std::make_unique<State>(options);
  state_->in.initMainGlobals(*state_->globals, std::nullopt);
}

InteractiveSession::~InteractiveSession() {
  {
    auto vars = std::move(state_->globals->vars);
    state_->globals->vars.clear();
  }
  state_->in.teardown();
}

InteractiveSession::Outcome InteractiveSession::run(std::shared_ptr<const ast::Module> input) {
  State &s = *state_;
  s.inputs.push_back(input);
  Outcome outcome;
  PhaseTimer timer(s.in.profiler(), Phase::Run);
  outcome.status = runReporting(
      s.in, s.in.options(),
      [&] {
        Frame frame;
        frame.locals = s.globals;
        frame.globals = s.globals;
        Evaluator ev{s.in, frame};
        for (const auto &stmt : input->body) {
          auto *expr = llvm::dyn_cast<ast::ExprStmt>(stmt.get());
          if (!expr) {
            ev.execStatement(*stmt);
            continue;
          }
          s.in.restoreSpan(stmt->span);
          s.in.step();
          Value v = ev.eval(*expr->value);
          if (v.isNone()) continue;
          s.in.builtins()->vars["_"] = v;
          std::string text = s.in.repr(v);
          std::fputs(text.c_str(), stdout);
          std::fputc('\n', stdout);
        }
      },
      &outcome.exited);
  std::fflush(stdout);
  return outcome;
}

void InteractiveSession::finish() { state_->in.printRunReports(); }

}  // namespace tfs::runtime
