import type { PdfiumExports, Ptr } from './pdfiumExports'

/** Bytes of the out-parameter area every engine keeps (two FS_MATRIX and a font name fit). */
export const SCRATCH_BYTES = 512

/**
 * Typed views over the engine's memory. A grown memory gets a new buffer (the old views read nothing),
 * so each read checks the buffer first; that is one comparison, and reads happen after the calls that
 * may allocate.
 */
export class Heap {
  private buffer: ArrayBuffer | undefined
  private bytes = new Uint8Array(0)
  private floats = new Float32Array(0)
  private doubles = new Float64Array(0)
  private ints = new Int32Array(0)

  constructor(
    private readonly memory: WebAssembly.Memory,
    /** The out-parameter area (SCRATCH_BYTES, 8-byte aligned). */
    readonly scratch: Ptr,
  ) {}

  private views(): void {
    if (this.memory.buffer === this.buffer) return
    const buffer = this.memory.buffer
    this.buffer = buffer
    this.bytes = new Uint8Array(buffer)
    this.floats = new Float32Array(buffer)
    this.doubles = new Float64Array(buffer)
    this.ints = new Int32Array(buffer)
  }

  u8(): Uint8Array {
    this.views()
    return this.bytes
  }

  f32(ptr: Ptr): number {
    this.views()
    return this.floats[ptr >> 2] as number
  }

  f64(ptr: Ptr): number {
    this.views()
    return this.doubles[ptr >> 3] as number
  }

  i32(ptr: Ptr): number {
    this.views()
    return this.ints[ptr >> 2] as number
  }

  /**
   * The float32 view as it is now, for loops of calls that allocate nothing (reading it costs no
   * buffer check); `grew` says whether the memory was replaced since.
   */
  floatView(): Float32Array {
    this.views()
    return this.floats
  }

  grew(view: Float32Array): boolean {
    return this.memory.buffer !== view.buffer
  }

  /** An FS_MATRIX (six float32: a, b, c, d, e, f) at `ptr`. */
  matrix(ptr: Ptr): [number, number, number, number, number, number] {
    this.views()
    const at = ptr >> 2
    const f = this.floats
    return [f[at] ?? 1, f[at + 1] ?? 0, f[at + 2] ?? 0, f[at + 3] ?? 1, f[at + 4] ?? 0, f[at + 5] ?? 0]
  }
}

/** Copies `bytes` into memory allocated in the engine; the caller frees it. 0 when it does not fit. */
export function copyIn(x: PdfiumExports, heap: Heap, bytes: Uint8Array): Ptr {
  const ptr = x.malloc(Math.max(1, bytes.length))
  if (ptr) heap.u8().set(bytes, ptr)
  return ptr
}
