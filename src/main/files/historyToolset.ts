import { z } from 'zod'
import { defineToolset, method } from '../tools'
import { AgentPathArg, RestoreReceipt, restoreReceipt } from './schemas'

export function createHistoryToolset() {
  return defineToolset({
    name: 'history',
    summary: 'Earlier versions of workspace files: list them and restore one (deleted files too).',
    description:
      'Every change made through Bureau is recorded. list shows the versions of one file, newest first; ' +
      'restore writes a version back (the current content is kept as a backup and in the history).',
    methods: {
      list: method({
        description:
          'Versions of a file, newest first. change tells what each version did: added, modified or deleted.',
        input: z.object({
          path: AgentPathArg,
          limit: z.number().int().min(1).max(500).default(20),
        }),
        output: z.object({
          path: z.string(),
          versions: z.array(
            z.object({
              version: z.string().describe('Pass to restore.'),
              date: z.string(),
              message: z.string(),
              change: z.enum(['added', 'modified', 'deleted']),
            }),
          ),
        }),
        examples: [{ path: '/reports/report.xlsx' }],
        risk: 'read',
        run: async ({ path, limit }, ctx) => ({
          path,
          versions: await ctx.workspace.history.list(path, limit),
        }),
      }),
      restore: method({
        description:
          'Restores a file as it was in a version from list (default: the newest version that has content, which brings back a deleted file).',
        input: z.object({
          path: AgentPathArg,
          version: z.string().optional().describe('A version id from history list; not a "deleted" one.'),
        }),
        output: RestoreReceipt,
        examples: [{ path: '/notes/a.txt' }, { path: '/notes/a.txt', version: '1a2b3c4d5e' }],
        risk: 'write',
        run: async ({ path, version }, ctx) =>
          restoreReceipt(await ctx.workspace.history.restore(path, version)),
      }),
    },
  })
}
