import { describe, expect, it } from 'vitest'
import { withGrant } from '../../../../src/main/agent/approvals'
import { MAX_APPROVED_TOOLS } from '../../../../src/shared/ipc'

describe('a conversation’s "always allow" grants', () => {
  it('adds a grant once, as the newest', () => {
    expect(withGrant(undefined, 'files.writeText')).toEqual(['files.writeText'])
    expect(withGrant(['files.writeText', 'web.click'], 'files.writeText')).toEqual([
      'web.click',
      'files.writeText',
    ])
  })

  it('when full, the oldest grant gives way, so the new one is kept and still fits the schema', () => {
    const full = Array.from({ length: MAX_APPROVED_TOOLS }, (_, index) => `mcp.tool${index}`)
    const next = withGrant(full, 'files.writeText')
    expect(next).toHaveLength(MAX_APPROVED_TOOLS)
    expect(next.at(-1)).toBe('files.writeText')
    expect(next).not.toContain('mcp.tool0')
  })
})
