import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { delegatable } from '../../../src/main/agent/service/delegatable'
import { defineToolset, method } from '../../../src/main/tools'

const toolset = (name: string) =>
  defineToolset({
    name,
    summary: `${name} things.`,
    methods: {
      ping: method({
        description: 'Ping.',
        input: z.object({}),
        output: z.object({}),
        risk: 'read',
        run: () => ({}),
      }),
    },
  })

describe('delegatable', () => {
  const [files, sheet, web] = [toolset('files'), toolset('sheet'), toolset('web')]

  it('offers sub-agents only among the run toolsets', () => {
    expect(delegatable([files, sheet, web], [files, sheet]).map((t) => t.name)).toEqual(['files', 'sheet'])
  })

  it('offers none to a run limited to one toolset, or when none are configured', () => {
    expect(delegatable([files, sheet], [files])).toEqual([])
    expect(delegatable(undefined, [files, sheet])).toEqual([])
  })
})
