import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { init } from '@embedpdf/pdfium'
import { wasmFlagsForPdfium } from '../wasmTiering'
import { Heap, SCRATCH_BYTES } from './heap'
import type { PdfiumExports } from './pdfiumExports'

/** One instance of PDFium (WebAssembly): its exports and its memory. */
export interface Pdfium {
  x: PdfiumExports
  heap: Heap
  /** Set when a call trapped: the engine's state is unknown, so nothing calls it again. */
  broken: boolean
}

/**
 * WebAssembly memory grows and never shrinks: an instance whose memory one document grew past this is
 * dropped once no conversion uses it (the garbage collector frees its memory), and the next conversion
 * instantiates a fresh one (~20 ms; the compiled module is kept).
 */
export const RETIRE_HEAP_BYTES = 256 * 1024 * 1024

let retireBytes = RETIRE_HEAP_BYTES

/** Tests lower the limit (`undefined`: the default) to see an instance dropped without a huge document. */
export function setRetireHeapBytes(bytes: number | undefined): void {
  retireBytes = bytes ?? RETIRE_HEAP_BYTES
}

interface Slot {
  ready: Promise<Pdfium>
  engine?: Pdfium
  users: number
}

let compiled: Promise<WebAssembly.Module> | undefined
let slot: Slot | undefined
const stats = { instances: 0 }

/** The engine's .wasm in its package, found from this file: in node_modules for the sources and the build. */
export function pdfiumWasmPath(): string {
  return createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm')
}

async function compileModule(): Promise<WebAssembly.Module> {
  const bytes = readFileSync(pdfiumWasmPath())
  wasmFlagsForPdfium()
  return WebAssembly.compile(bytes)
}

function compile(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const started = compileModule()
    compiled = started
    started.catch(() => {
      if (compiled === started) compiled = undefined
    })
  }
  return compiled
}

async function instantiate(): Promise<Pdfium> {
  const module = await compile()
  let instance: WebAssembly.Instance | undefined
  await init({
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      instance = new WebAssembly.Instance(module, imports)
      receive(instance)
      return instance.exports
    },
    // PDFium reports damaged objects on stderr; the converter reports what it could not read itself.
    print: () => {},
    printErr: () => {},
  } as Parameters<typeof init>[0])
  if (!instance) throw new Error('the PDF engine did not start')
  const x = instance.exports as unknown as PdfiumExports
  x.PDFiumExt_Init()
  const scratch = x.malloc(SCRATCH_BYTES)
  stats.instances++
  return { x, heap: new Heap(x.memory, scratch), broken: false }
}

function start(): Slot {
  const fresh: Slot = { ready: instantiate(), users: 0 }
  fresh.ready.then(
    (engine) => {
      fresh.engine = engine
    },
    () => {
      if (slot === fresh) slot = undefined
    },
  )
  return fresh
}

/** Starts compiling and instantiating the engine (a worker warming up for a batch of PDFs). */
export function preloadPdfium(): void {
  slot ??= start()
  slot.ready.catch(() => {})
}

/** The shared engine, held until `releasePdfium`; conversions in one worker take turns at its calls. */
export async function acquirePdfium(): Promise<Pdfium> {
  slot ??= start()
  const held = slot
  held.users++
  try {
    return await held.ready
  } catch (error) {
    held.users--
    throw error
  }
}

export function releasePdfium(engine: Pdfium): void {
  const held = slot
  if (!held || held.engine !== engine) return
  held.users--
  if (engine.broken || (held.users === 0 && engine.x.memory.buffer.byteLength > retireBytes)) slot = undefined
}

/**
 * A call into the engine threw (a trap: memory exhausted, a fault in PDFium): its memory and stack may
 * be left in any state, so no one calls it again and the next conversion gets a new instance.
 */
export function isEngineFailure(error: unknown): boolean {
  // RangeError: the engine's recursion overflowed the thread's stack.
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError
}

/**
 * Runs `body` on something held in the engine, then `release` to free it; when a call traps, the engine
 * is marked broken first, and nothing is freed (the instance is dropped whole).
 */
export function holding<T>(engine: Pdfium, body: () => T, release: () => void): T {
  try {
    return body()
  } catch (error) {
    if (isEngineFailure(error)) engine.broken = true
    throw error
  } finally {
    if (!engine.broken) release()
  }
}

/** For tests: instances made in this thread and the current one's memory. */
export function pdfiumStats(): { instances: number; heapBytes: number | undefined } {
  return { instances: stats.instances, heapBytes: slot?.engine?.x.memory.buffer.byteLength }
}
