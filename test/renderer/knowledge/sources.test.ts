// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { anchorLabel } from '../../../src/main/knowledge/chunking/anchor'
import { linkCitations, sourcesOf } from '../../../src/renderer/src/knowledge/KnowledgeSources'
import type { AgentStep } from '../../../src/shared/ipc'

const passage = (n: number, path: string, location: string, start: number) => ({
  n,
  path,
  location,
  start,
  end: start + 100,
  text: 'x',
  score: 1,
  anchor: { headings: [] },
})

const search = (passages: unknown[]): AgentStep =>
  ({ method: 'knowledge.search', status: 'ok', result: { passages } }) as unknown as AgentStep

describe('the sources under an answer', () => {
  const steps = [
    search([
      passage(1, '/lease.pdf', 'Page 4', 0),
      passage(2, '/lease.pdf', 'Page 4', 400),
      passage(3, '/lease.pdf', 'Page 4', 800),
      passage(4, '/lease.pdf', 'Page 4', 1200),
      passage(5, '/lease.pdf', 'Page 7', 3000),
      passage(6, '/notes.md', 'Start of the document', 0),
      passage(7, '/lease.pdf', 'Page 9', 4000),
      passage(8, '/budget.xlsx', 'Sheet "Q1"', 0),
    ]),
  ]

  it('lists only what the answer cites, one line per place, with the numbers the model used', () => {
    const sources = sourcesOf(steps, 'Three months [1], in writing [3] and by post [5].')
    expect(sources.map((s) => [s.numbers, s.path, s.location])).toEqual([
      [[1, 3], '/lease.pdf', 'Page 4'],
      [[5], '/lease.pdf', 'Page 7'],
    ])
  })

  it('without citations, every place found once (the same page four times is one line)', () => {
    expect(sourcesOf(steps, 'No citation here.').map((s) => s.location)).toEqual([
      'Page 4',
      'Page 7',
      'Start of the document',
      'Page 9',
      'Sheet "Q1"',
    ])
  })

  it('makes each cited [n] a link to its source, and leaves other brackets alone', () => {
    const sources = sourcesOf(steps, 'See [1] and [5].')
    expect(linkCitations('See [1] and [5]; [9] and [2](http://x) stay.', 'm1', sources)).toBe(
      'See [[1]](#source-m1-1) and [[5]](#source-m1-5); [9] and [2](http://x) stay.',
    )
  })

  it('a heading that is only an id (a GUID, a long hex key) is left out of the place', () => {
    expect(
      anchorLabel({
        headings: [
          '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
          'Notice period',
          '9f86d081884c7d659a2feaa0c55ad015',
        ],
        page: 4,
      }),
    ).toBe('Page 4 › Notice period')
  })
})
