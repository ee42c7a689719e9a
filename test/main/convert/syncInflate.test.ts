import { deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { installSyncInflate } from '../../../src/main/convert/pdf/syncInflate'

// The DecompressionStream stand-in pdf.js inflates FlateDecode streams with, used the way pdf.js uses it.

async function inflate(format: string, bytes: Uint8Array): Promise<Buffer> {
  const { readable, writable } = new DecompressionStream(format as CompressionFormat)
  const writer = writable.getWriter()
  await writer.ready
  writer
    .write(new Uint8Array(bytes))
    .then(async () => {
      await writer.ready
      await writer.close()
    })
    .catch(() => {})
  const chunks: Uint8Array[] = []
  for await (const chunk of readable as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('synchronous inflate for pdf.js', () => {
  installSyncInflate()
  const text = Buffer.from('BT /F1 12 Tf (Hello) Tj ET\n'.repeat(200))

  it('inflates a deflate stream in one piece', async () => {
    expect((await inflate('deflate', deflateSync(text))).equals(text)).toBe(true)
  })

  it('fails on truncated data, so pdf.js falls back to its own inflate', async () => {
    const truncated = deflateSync(text).subarray(0, 40)
    await expect(inflate('deflate', truncated)).rejects.toThrow()
  })

  it('other formats still get the platform stream', async () => {
    expect((await inflate('gzip', gzipSync(text))).equals(text)).toBe(true)
  })
})
