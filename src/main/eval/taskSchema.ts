import { z } from 'zod'
import { Check } from './checks/checkSchema'

/** One tool call of a setup, reference or wrong solution. `done` is the final answer, not a tool. */
export const ToolCallSpec = z.strictObject({
  tool: z.string().min(1).describe('Any spelling invoke resolves: "spreadsheet_set_range", "files.move"'),
  args: z.record(z.string(), z.unknown()).default({}),
})
export type ToolCallSpec = z.infer<typeof ToolCallSpec>

export const Difficulty = z.enum(['easy', 'medium', 'hard'])
export type Difficulty = z.infer<typeof Difficulty>

/** The toolsets a task is about (for the totals); the agent is offered every toolset, as in the app. */
export const TaskToolset = z.enum([
  'spreadsheet',
  'convert',
  'files',
  'history',
  'web',
  'documents',
  'email',
  'knowledge',
  'mcp',
])

const AgentPath = z.string().regex(/^\/[^\0]*[^/]$/, 'an agent path like /reports/q3.xlsx')
const FixturePath = z
  .string()
  .regex(/^[\w.-]+(\/[\w.-]+)*$/, 'a path inside eval/fixtures, e.g. xlsx/sales.xlsx')
  .refine((p) => !p.split('/').includes('..'), 'no ".." in fixture paths')

/**
 * A task manifest (`eval/tasks/<id>/task.json`). Strings in prompt, setup, reference, wrong and checks
 * may contain `{{site}}`: the origin of the harness's local test pages (http://127.0.0.1:<port>).
 */
export const TaskManifest = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  title: z.string().min(1),
  /** What is exercised, e.g. "spreadsheet.total-column"; one task per kind the issue lists at least. */
  kind: z.string().regex(/^[a-z]+\.[a-z0-9-]+$/),
  toolsets: z.array(TaskToolset).min(1),
  difficulty: Difficulty,
  /** Model calls allowed (the agent's maxIterations for this task). */
  stepBudget: z.number().int().min(1).max(200),
  prompt: z.string().min(1),
  /** Files attached to the request, from eval/fixtures (converted and saved to /inbox like the app's). */
  attachments: z.array(FixturePath).default([]),
  /** The start workspace: agent path -> file in eval/fixtures. */
  workspace: z.record(AgentPath, FixturePath).default({}),
  /**
   * Messages (.eml files in eval/fixtures) in the INBOX of the task's own e-mail account, on a Dovecot the
   * harness starts for the run; the `email` toolset is then that account's (never the user's accounts).
   */
  mailbox: z.array(FixturePath).default([]),
  /**
   * MCP servers of the task: stdio server scripts in eval/fixtures (e.g. `mcp/inventory.mjs`), started
   * through Bureau's MCP client for the attempt; each becomes the toolset named after its file.
   */
  mcp: z.array(FixturePath.regex(/\.m?js$/, 'a .mjs or .js server script')).default([]),
  /** Tool calls run before the task (e.g. a change and a delete, so the history has something to restore). */
  setup: z.array(ToolCallSpec).default([]),
  /** A correct solution: replayed by `bureau eval --reference` through the real tool pipeline. */
  reference: z.array(ToolCallSpec).min(1),
  /** A plausible mistake the checks must reject. */
  wrong: z.strictObject({ mistake: z.string().min(1), calls: z.array(ToolCallSpec).min(1) }),
  checks: z.array(Check).min(1),
})
export type TaskManifest = z.infer<typeof TaskManifest>

/** A message of a task's mailbox held in memory: `INBOX` (the task's user) or the folder of another person. */
export interface TaskMessage {
  folder: string
  bytes: Uint8Array
}

/** A task as loaded: its manifest and where its files are. */
export interface EvalTask extends TaskManifest {
  dir: string
  /** Start files read into memory at load (a third-party suite's): agent path -> bytes. */
  files?: ReadonlyMap<string, Uint8Array>
  /** Messages read into memory at load, filed into the task's mailbox by folder. */
  mail?: readonly TaskMessage[]
  /** The address of the task's own mail account (default: one of the harness's). */
  mailAddress?: string
  /** Why the task's own checks can never pass: it still runs, but is scored apart. */
  cannotPass?: string
  /** The number of applications a third-party task spans (OfficeBench's tiers). */
  apps?: number
}
