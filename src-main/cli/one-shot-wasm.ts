/**
 * `agentry run` on a host of its own streams the model's answer through Node's fetch, whose HTTP parser is
 * WebAssembly. V8 tiers hot WebAssembly up with its optimizing compiler on background threads — work a one-shot
 * command pays for in full and hardly uses (≈ 100 ms of CPU per run, bench/cli-start.bench.ts) — so such a run keeps
 * WebAssembly at baseline code. A changed V8 flag also makes Node compile each builtin it loads afterwards without the
 * builtin's cached code: fetch and the web streams are loaded first, and only a process that is the command itself
 * does this (not tests calling main(), not `serve` or `acp`, which live long enough for optimized code to pay off).
 */
export function keepWasmAtBaseline(): void {
  void globalThis.fetch
  void globalThis.TextDecoderStream
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only')
}
