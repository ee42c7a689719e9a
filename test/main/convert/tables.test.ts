import { describe, expect, it } from 'vitest'
import { renderTable } from '../../../src/main/convert/markdown/table'
import { renderSheet } from '../../../src/main/convert/table/renderSheet'
import { applyMerges, pruneGrid, shapeTable } from '../../../src/main/convert/table/shapeGrid'

describe('renderTable', () => {
  it('escapes pipes, keeps line breaks as <br> and pads short rows', () => {
    expect(renderTable([['a', 'b'], ['x|y', 'line 1\nline 2'], ['only']])).toBe(
      '| a | b |\n| --- | --- |\n| x\\|y | line 1<br>line 2 |\n| only |  |',
    )
  })
})

describe('shapeTable', () => {
  it('prunes empty rows and columns', () => {
    expect(
      pruneGrid([
        ['', 'a', '', 'b'],
        ['', '', '', ''],
        ['', '1', '', '2'],
      ]),
    ).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
  })

  it('finds the header below a title instead of assuming row 1', () => {
    const shaped = shapeTable([
      ['Quarterly sales', '', ''],
      ['', '', ''],
      ['Region', 'Q1', 'Q2'],
      ['North', '10', '12'],
      ['South', '7', '9'],
    ])
    expect(shaped.preamble).toEqual(['Quarterly sales'])
    expect(shaped.header).toEqual(['Region', 'Q1', 'Q2'])
    expect(shaped.rows).toHaveLength(2)
  })

  it('does not promote a row of numbers to a header', () => {
    const shaped = shapeTable([
      ['1', '2'],
      ['3', '4'],
    ])
    expect(shaped.header).toBeUndefined()
    expect(renderSheet(shaped, undefined).markdown.split('\n')[0]).toBe('| A | B |')
  })

  it('repeats merged values across their cells, except a full-width title', () => {
    const grid = [
      ['Title', '', ''],
      ['Group', 'x', '1'],
      ['', 'y', '2'],
    ]
    applyMerges(
      grid,
      [
        { top: 0, left: 0, bottom: 0, right: 2 },
        { top: 1, left: 0, bottom: 2, right: 0 },
      ],
      3,
    )
    expect(grid[0]).toEqual(['Title', '', ''])
    expect(grid[2]).toEqual(['Group', 'y', '2'])
  })
})

describe('renderSheet', () => {
  it('summarises a large sheet with first and last rows and the row count', () => {
    const rows = Array.from({ length: 500 }, (_, index) => [`item ${index + 1}`, String(index * 3)])
    const sheet = renderSheet({ preamble: [], header: ['Name', 'Value'], rows }, 2000)
    expect(sheet.summarised).toBe(true)
    expect(sheet.markdown.length).toBeLessThanOrEqual(2000)
    expect(sheet.markdown).toContain('| item 1 | 0 |')
    expect(sheet.markdown).toContain('| item 500 | 1497 |')
    expect(sheet.markdown).toMatch(/500 data rows in total/)
    expect(sheet.markdown).toMatch(/rows omitted/)
  })
})
