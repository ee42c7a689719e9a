import { type ConvertLifetime, convertLifetime } from './lifetime'

// V8 compiles WebAssembly lazily, function by function on first call, with its baseline compiler
// (Liftoff); by default (dynamic tiering) it recompiles a function with TurboFan once it has run hot.
// Neither suits PDFium, so the worker chooses by the process's lifetime (`lifetime.ts`):
// - `command` (one CLI batch): Liftoff only. Dynamic tier-up cost ~210 ms on the first 6 bench PDFs on
//   2 cores against ~55 ms Liftoff only, and TurboFan's code (~21 ms a round against ~31) repays it only
//   after ~15 rounds. A cold CLI batch of 24 PDFs (interleaved, medians of 9): Liftoff only 760 ms, the
//   whole module compiled by Liftoff at once 900, V8's default 1000.
// - `session` (the app's host): eager tier-up of the functions that ran (`--no-wasm-dynamic-tiering`):
//   each function PDFium calls is compiled by Liftoff on its first call and queued for TurboFan in the
//   background at once, ~0.3 s of CPU once per process (the whole module would be ~4.5 s). Measured
//   in-process on the 6 bench PDFs, rounds of 6 files: steady state ~30 ms against ~38-40 with Liftoff
//   only (PDFium's share ~22 against ~31), reached by the 4th round when the host is otherwise idle; the
//   first round pays the compiler's competition for the cores (~630 ms against ~250).
// Both validate a function's code when it is first compiled, not all of PDFium's 4.6 MB up front
// (`--wasm-lazy-validation`: compiling the module ~23 -> ~7 ms, on the critical path of a cold CLI run;
// nothing runs unvalidated). The flags are the process's, so OCR (tesseract.js, a long run that does
// need TurboFan) turns the defaults back on before its engine compiles (with Liftoff only a scanned
// PDF's OCR took ~30% longer); functions compiled before keep their tier. V8's code cache carries a
// hash of the flags, so the worker writes its cache under the defaults (`withDefaultWasmFlags`): a
// chunk first compiled after the flags were changed (a .docx after PDFs in the same worker) finds its
// cache refused and compiles from source, as without a cache.
//
// The flags were checked on V8 11.3 (Node 20: `--liftoff-only` implies `--no-wasm-tier-up` and
// `--no-wasm-dynamic-tiering`); another V8 (Node 22+, Electron) is left at its defaults, since an unknown
// flag is printed on stderr. Flags given on the command line are the user's: then nothing is changed.

const CHECKED_V8 = /^11\.3\./

function ours(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')
  return CHECKED_V8.test(process.versions.v8) && !/wasm|liftoff/.test(given)
}

const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering --no-wasm-lazy-validation'

/** The flags PDFium is compiled and run under, by the process's lifetime. */
export function pdfiumWasmFlags(lifetime: ConvertLifetime): string {
  const tier =
    lifetime === 'command' ? '--liftoff-only' : '--no-liftoff-only --wasm-tier-up --no-wasm-dynamic-tiering'
  return `${tier} --wasm-lazy-validation`
}

/** The flags this thread set for PDFium, if any (each worker keeps its own state; the flags are shared). */
let lowered: string | undefined

function setFlags(flags: string): void {
  process.getBuiltinModule('node:v8').setFlagsFromString(flags)
}

/** Before compiling PDFium: WebAssembly compiled from now on is compiled as the lifetime asks. */
export function wasmFlagsForPdfium(): void {
  if (!ours()) return
  lowered = pdfiumWasmFlags(convertLifetime())
  setFlags(lowered)
}

/** Before compiling OCR's engine: tier-up as V8 does it by default. */
export function wasmTierUp(): void {
  if (ours()) setFlags(DEFAULTS)
}

/**
 * Runs `write` under V8's default flags. A code cache carries a hash of the flags it was made under and
 * is refused under any others; the worker's chunks are compiled (and their cache read) at its start,
 * before PDFium lowers the flags, so the cache is written under the same defaults.
 */
export function withDefaultWasmFlags<T>(write: () => T): T {
  if (!lowered) return write()
  const restore = lowered
  setFlags(DEFAULTS)
  try {
    return write()
  } finally {
    setFlags(restore)
  }
}
