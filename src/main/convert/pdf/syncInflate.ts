import { inflateSync } from 'node:zlib'

type Chunk = Uint8Array

/**
 * One synchronous call cannot be interrupted, so a stream that inflates to more than this (a zip bomb, a
 * huge image) fails here and goes to pdf.js's own inflate, which the worker's deadline and memory
 * watchdog can stop between its steps.
 */
const MAX_SYNC_OUTPUT = 256 * 1024 * 1024

/**
 * pdf.js 5 inflates every FlateDecode stream through a web `DecompressionStream('deflate')`: in Node that
 * is zlib behind a web-streams pipeline, whose promises and chunk copies cost more than the inflating on a
 * text PDF. This stand-in has the part of the interface pdf.js uses (a writer, an async-iterable readable)
 * and inflates in one synchronous zlib call when the writer closes. Corrupt or truncated data fails the
 * same way as before (the readable throws), and pdf.js then falls back to its own inflate, as it does now.
 */
class SyncInflateStream {
  readonly writable: { getWriter(): SyncWriter }
  readonly readable: AsyncIterable<Chunk>

  constructor() {
    const chunks: Chunk[] = []
    let settle: (result: { data?: Chunk; error?: unknown }) => void = () => {}
    const done = new Promise<{ data?: Chunk; error?: unknown }>((resolve) => {
      settle = resolve
    })
    const writer: SyncWriter = {
      ready: Promise.resolve(),
      write: async (chunk) => {
        chunks.push(chunk)
      },
      close: async () => {
        try {
          settle({
            data: inflateSync(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks), {
              maxOutputLength: MAX_SYNC_OUTPUT,
            }),
          })
        } catch (error) {
          settle({ error })
        }
      },
      abort: async (reason) => settle({ error: reason }),
    }
    this.writable = { getWriter: () => writer }
    this.readable = {
      async *[Symbol.asyncIterator]() {
        const { data, error } = await done
        if (error !== undefined) throw error
        if (data && data.byteLength > 0) yield data
      },
    }
  }
}

interface SyncWriter {
  ready: Promise<void>
  write(chunk: Chunk): Promise<void>
  close(): Promise<void>
  abort(reason?: unknown): Promise<void>
}

const installed = Symbol.for('bureau.syncInflate')

/**
 * Installs the stand-in for the 'deflate' format in this thread (the conversion worker, where pdf.js
 * runs); every other format still gets the platform's DecompressionStream.
 */
export function installSyncInflate(): void {
  const globals = globalThis as unknown as Record<string | symbol, unknown>
  if (globals[installed]) return
  const platform = globalThis.DecompressionStream
  // Called with `new` by pdf.js: the object returned is the stream.
  globals.DecompressionStream = function decompressionStream(format: string): unknown {
    if (format === 'deflate') return new SyncInflateStream()
    if (!platform) throw new TypeError(`unsupported compression format: ${format}`)
    return new platform(format as CompressionFormat)
  }
  globals[installed] = true
}
