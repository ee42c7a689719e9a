/**
 * How long this process's converters live, which decides how the PDF engine is compiled
 * (`wasmTiering.ts`): `session`, the app's host, converts for hours, so the engine's hot code is
 * recompiled by V8's optimizing compiler in the background; `command`, one `bureau convert` run, ends
 * before that would repay itself, so the engine stays on the baseline compiler.
 */
export type ConvertLifetime = 'session' | 'command'

/** A lifetime handed to a worker (both ends are this module's code; the worker checks anyway). */
export function isConvertLifetime(value: unknown): value is ConvertLifetime {
  return value === 'session' || value === 'command'
}

let lifetime: ConvertLifetime = 'session'

/** Set once, before the first conversion starts a worker: workers read it when they start. */
export function setConvertLifetime(value: ConvertLifetime): void {
  lifetime = value
}

export function convertLifetime(): ConvertLifetime {
  return lifetime
}
