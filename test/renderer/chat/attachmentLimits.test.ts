import { describe, expect, it } from 'vitest'
import { admitFiles, namePastedFile } from '../../../src/renderer/src/chat/composer/attachmentLimits'

const limits = { maxFiles: 3, maxFileBytes: 1000, maxTotalBytes: 1500 }
const f = (name: string, size: number) => ({ name, size })

describe('admitFiles', () => {
  it('accepts files within every limit, in order', () => {
    const { accepted, rejected } = admitFiles([], [f('a.docx', 100), f('b.xlsx', 200)], limits)
    expect(accepted.map((x) => x.name)).toEqual(['a.docx', 'b.xlsx'])
    expect(rejected).toEqual([])
  })

  it('names every file it leaves out, with the reason', () => {
    const { accepted, rejected } = admitFiles(
      [f('old.pdf', 100)],
      [
        f('big.zip', 5000),
        f('empty.txt', 0),
        f('old.pdf', 100),
        f('a.csv', 900),
        f('b.csv', 600),
        f('c.csv', 10),
        f('d.csv', 10),
      ],
      limits,
    )
    expect(accepted.map((x) => x.name)).toEqual(['a.csv', 'c.csv'])
    expect(rejected).toEqual([
      { name: 'big.zip', reason: '4.9 KB is over the 1000 B limit per file' },
      { name: 'empty.txt', reason: 'the file is empty' },
      { name: 'old.pdf', reason: 'already attached' },
      { name: 'b.csv', reason: 'all files together would exceed 1.5 KB' },
      { name: 'd.csv', reason: 'only 3 files fit in one message' },
    ])
  })

  it('has defaults that match the contract cap of 20 files', () => {
    const many = Array.from({ length: 22 }, (_, i) => f(`f${i}.txt`, 10))
    const { accepted, rejected } = admitFiles([], many)
    expect(accepted).toHaveLength(20)
    expect(rejected.map((r) => r.name)).toEqual(['f20.txt', 'f21.txt'])
  })
})

describe('namePastedFile', () => {
  it('gives a pasted screenshot a dated name and keeps real names', () => {
    const pasted = namePastedFile(
      new File(['x'], 'image.png', { type: 'image/png' }),
      new Date('2025-03-04T05:06:07Z'),
    )
    expect(pasted.name).toBe('pasted-2025-03-04-05-06-07.png')
    expect(pasted.type).toBe('image/png')
    const named = new File(['x'], 'report.pdf', { type: 'application/pdf' })
    expect(namePastedFile(named)).toBe(named)
  })
})
