import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { withFastCheck } from '../../../src/main/tools'
import { toJsonSchema } from '../../../src/main/tools/schema/jsonSchema'

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]).describe('A cell')
const Grid = z.array(z.array(Cell)).min(1).describe('Rows')
type Grid = z.infer<typeof Grid>

function isGrid(value: unknown): value is Grid {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (line) =>
        Array.isArray(line) &&
        line.every(
          (cell) =>
            cell === null ||
            typeof cell === 'string' ||
            typeof cell === 'boolean' ||
            (typeof cell === 'number' && Number.isFinite(cell)),
        ),
    )
  )
}

const Fast = withFastCheck(Grid, isGrid)
const Call = z.object({ values: Fast })
const Plain = z.object({ values: Grid })

describe('withFastCheck', () => {
  it('shows models the schema it wraps', () => {
    expect(toJsonSchema(Call, 'input')).toEqual(toJsonSchema(Plain, 'input'))
    expect(toJsonSchema(Fast, 'input')).toMatchObject({ type: 'array', minItems: 1, description: 'Rows' })
  })

  it('takes an accepted value as it is', () => {
    const values = [['a', 1, true, null], []]
    const parsed = Call.parse({ values })
    expect(parsed.values).toBe(values)
  })

  it.each([
    [[[{}]]],
    [[['ok', [1]]]],
    [[]],
    [[[Number.NaN]]],
    [[[Number.POSITIVE_INFINITY]]],
    ['not an array'],
    [[['x'], 'row']],
  ])('refuses %j with the issues the wrapped schema gives', (values) => {
    const fast = Call.safeParse({ values })
    const plain = Plain.safeParse({ values })
    expect(fast.success).toBe(false)
    expect(plain.success).toBe(false)
    const issues = (result: typeof fast) =>
      result.error?.issues.map((issue) => ({ path: issue.path, code: issue.code, message: issue.message }))
    expect(issues(fast)).toEqual(issues(plain))
  })
})
