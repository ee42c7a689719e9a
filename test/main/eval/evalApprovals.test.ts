import { describe, expect, it } from 'vitest'
import { evalApprovalGate } from '../../../src/main/eval/evalApprovals'
import type { ApprovalRequest } from '../../../src/main/tools'

// The eval cannot ask anyone; its documented policy runs an MCP tool without a
// read-only hint (risk `external`) and says so in the decision, whatever the user's own rules are.
const request = (risk: ApprovalRequest['risk']): ApprovalRequest => ({
  toolset: 'inventory',
  method: 'reserveStock',
  name: 'inventory_reserve_stock',
  risk,
  args: { sku: 'TNR-HP-26A', quantity: 8 },
})
const signal = new AbortController().signal

describe('the eval approval policy', () => {
  it('external calls run as approved non-interactively; reads and writes by the default policy', async () => {
    const gate = evalApprovalGate()
    expect(await gate(request('external'), signal)).toEqual({ allowed: true, by: 'non-interactive' })
    expect(await gate(request('write'), signal)).toEqual({ allowed: true, by: 'policy' })
    expect(await gate(request('read'), signal)).toEqual({ allowed: true, by: 'policy' })
  })
})
