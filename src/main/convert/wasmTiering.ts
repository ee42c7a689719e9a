// V8 compiles WebAssembly function by function with its baseline compiler (Liftoff) and recompiles the
// hot ones with TurboFan in background threads. For PDFium that tier-up costs more than it gives over
// the few documents of a batch: on the 2-core machine the first 6 bench PDFs took ~210 ms with it
// against ~55 ms Liftoff only; only after ~15 rounds does TurboFan's code (~21 ms a round against ~31)
// repay it. A cold CLI batch of 24 PDFs (interleaved runs, medians of 9, machine under load): Liftoff
// only 760 ms; the whole module compiled by Liftoff at once, the flags put back after, 900; V8's
// default 1000. The flags are the process's, so OCR (tesseract.js, a long run that does need TurboFan)
// turns tier-up back on before its engine compiles (with them lowered a scanned PDF's OCR took ~30%
// longer); functions compiled before keep their tier. V8's code cache carries a hash of the flags, so
// the worker writes its cache under the defaults (`withDefaultWasmFlags`): a chunk first compiled after
// the flags were lowered (a .docx after PDFs in the same worker) finds its cache refused and compiles
// from source, as without a cache.
//
// The flags were checked on V8 11.3 (Node 20: `--liftoff-only` implies `--no-wasm-tier-up` and
// `--no-wasm-dynamic-tiering`); another V8 (Node 22+, Electron) is left at its defaults, since an unknown
// flag is printed on stderr. Flags given on the command line are the user's: then nothing is changed.

const CHECKED_V8 = /^11\.3\./

function ours(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')
  return CHECKED_V8.test(process.versions.v8) && !/wasm|liftoff/.test(given)
}

const BASELINE = '--liftoff-only'
const DEFAULTS = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering'

/** Whether this thread lowered the flags (each worker keeps its own state; the flags are shared). */
let lowered = false

function setFlags(flags: string): void {
  process.getBuiltinModule('node:v8').setFlagsFromString(flags)
}

/** Before compiling PDFium: WebAssembly compiled from now on stays on Liftoff. */
export function wasmBaselineOnly(): void {
  if (!ours()) return
  setFlags(BASELINE)
  lowered = true
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
  setFlags(DEFAULTS)
  try {
    return write()
  } finally {
    setFlags(BASELINE)
  }
}
