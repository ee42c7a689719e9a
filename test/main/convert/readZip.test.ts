import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { FormatProblem } from '../../../src/main/convert/errors'
import { readZip } from '../../../src/main/convert/zip/readZip'

/** A zip whose local header and central directory both claim `claimed` bytes for a member that holds more. */
function lyingZip(name: string, realBytes: number, claimed: number): Uint8Array {
  const zip = zipSync({ [name]: [new Uint8Array(realBytes), { level: 9 }] })
  const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength)
  view.writeUInt32LE(claimed, 22) // local file header: uncompressed size
  const central = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
  view.writeUInt32LE(claimed, central + 24) // central directory: uncompressed size
  return zip
}

const limits = { maxTotalBytes: 1024 * 1024, maxEntries: 100 }

describe('readZip', () => {
  it('stops at the limit by the bytes actually inflated when the directory lies about sizes', () => {
    const bytes = lyingZip('word/document.xml', 64 * 1024 * 1024, 100)
    let error: unknown
    try {
      readZip(bytes, () => true, limits)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(FormatProblem)
    expect((error as FormatProblem).failure).toBe('too_large')
    expect((error as FormatProblem).message).toBe(
      'the archive expands to more than 1 MB (more than its directory says)',
    )
  })

  it('still reads honest members, and skips the ones not wanted without inflating them', () => {
    const bytes = zipSync({
      'a.txt': new TextEncoder().encode('alpha'),
      'big.bin': [new Uint8Array(8 * 1024 * 1024), { level: 9 }],
    })
    const files = readZip(bytes, (name) => name === 'a.txt', limits)
    expect([...files.keys()]).toEqual(['a.txt'])
    expect(new TextDecoder().decode(files.get('a.txt'))).toBe('alpha')
  })
})
