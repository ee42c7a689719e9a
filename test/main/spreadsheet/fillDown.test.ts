import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Harness, harnessWithSheet } from './harness'

let h: Harness
const P = '/fill.xlsx'
beforeAll(async () => {
  h = await harnessWithSheet(P, 'Data', [
    ['Qty', 'Price', 'Total', 'Share'],
    [2, 10, '=A2*B2', '=C2/$C$6'],
    [3, 20, null, null],
    [4, 30, null, null],
    [5, 40, null, null],
    [null, null, 500, null],
  ])
})
afterAll(async () => h.cleanup())

describe('fill_down and fill_right', () => {
  it('fill_down shifts relative references by row and keeps $-anchored ones', async () => {
    const r = await h.call('fill_down', { path: P, sheet: 'Data', range: 'C2:D5' })
    expect(r).toMatchObject({
      range: 'C2:D5',
      values: [
        ['20', '0.04'],
        ['60', '0.12'],
        ['120', '0.24'],
        ['200', '0.4'],
      ],
      formulas: {
        C2: '=A2*B2',
        D2: '=C2/$C$6',
        C3: '=A3*B3',
        D3: '=C3/$C$6',
        C5: '=A5*B5',
        D5: '=C5/$C$6',
      },
    })
  })

  it('fill_right shifts by column', async () => {
    await h.call('set_range', { path: P, sheet: 'Data', start: 'F1', values: [[1, 2, 3], ['=F1*10']] })
    const r = await h.call('fill_right', { path: P, sheet: 'Data', range: 'F2:H2' })
    expect(r).toMatchObject({
      values: [['10', '20', '30']],
      formulas: { F2: '=F1*10', G2: '=G1*10', H2: '=H1*10' },
    })
  })

  it('a one-row fill_down is refused and nothing changes', async () => {
    expect(await h.fail('fill_down', { path: P, sheet: 'Data', range: 'A3:B3' })).toMatch(/has one row/)
    expect(await h.fail('fill_right', { path: P, sheet: 'Data', range: 'A3:A9' })).toMatch(/has one column/)
    const read = await h.call('get_range', { path: P, sheet: 'Data', range: 'A3:B3' })
    expect(read).toMatchObject({ values: [['3', '20']] })
  })
})
