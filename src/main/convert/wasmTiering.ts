// V8 compiles WebAssembly function by function with its baseline compiler (Liftoff) and recompiles the
// hot ones with TurboFan in background threads. For PDFium that tier-up costs more than it gives over
// the few documents of a batch: on the 2-core machine the first 6 bench PDFs took ~210 ms with it
// against ~55 ms Liftoff only; only after ~15 rounds does TurboFan's code (~21 ms a round against ~31)
// repay it. The flags are the process's, so OCR (tesseract.js, a long run that does need TurboFan)
// turns tier-up back on before its engine compiles; functions compiled before keep their tier.
//
// The flags were checked on V8 11.3 (Node 20: `--liftoff-only` implies `--no-wasm-tier-up` and
// `--no-wasm-dynamic-tiering`); another V8 (Node 22+, Electron) is left at its defaults, since an unknown
// flag is printed on stderr. Flags given on the command line are the user's: then nothing is changed.

const CHECKED_V8 = /^11\.3\./

function ours(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')
  return CHECKED_V8.test(process.versions.v8) && !/wasm|liftoff/.test(given)
}

function setFlags(flags: string): void {
  process.getBuiltinModule('node:v8').setFlagsFromString(flags)
}

/** Before compiling PDFium: WebAssembly compiled from now on stays on Liftoff. */
export function wasmBaselineOnly(): void {
  if (ours()) setFlags('--liftoff-only')
}

/** Before compiling OCR's engine: tier-up as V8 does it by default. */
export function wasmTierUp(): void {
  if (ours()) setFlags('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering')
}
