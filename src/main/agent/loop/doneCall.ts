import { jsonObjectOf } from '../../../shared/json'
import type { Workspace } from '../../workspace'
import { DoneArgs, SubagentDoneArgs } from './agentTools'

export type DoneOutcome =
  | { ok: true; message: string; attachments: string[]; question?: string }
  | { ok: false; error: string }

const ALIASES = ['answer', 'result', 'text', 'summary', 'response']

/** Models sometimes name the message differently; accept the obvious aliases. */
function withMessageAlias(args: Record<string, unknown>): Record<string, unknown> {
  if (typeof args.message === 'string') return args
  const alias = ALIASES.find((key) => typeof args[key] === 'string')
  return alias ? { ...args, message: args[alias] } : args
}

function normalisePath(path: string): string {
  const trimmed = path.trim()
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

async function missingFiles(workspace: Workspace | undefined, paths: string[]): Promise<string[]> {
  if (!workspace) return []
  const missing: string[] = []
  for (const path of paths) {
    const exists = await workspace.exists(path).catch(() => false)
    if (!exists) missing.push(path)
  }
  return missing
}

/** Validates a `done` call: the message (or a sub-agent's question) and attachments that exist in the workspace. */
export async function checkDone(
  rawArgs: unknown,
  role: 'agent' | 'subagent',
  workspace: Workspace | undefined,
): Promise<DoneOutcome> {
  const args = withMessageAlias(jsonObjectOf(rawArgs))
  const parsed = (role === 'agent' ? DoneArgs : SubagentDoneArgs).safeParse(args)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue?.path.length ? `"${issue.path.join('.')}": ` : ''
    const usage =
      role === 'agent'
        ? 'done takes {"message": "text for the user", "attachments": ["/path"]}.'
        : 'done takes {"message": "your result"} or {"question": "what you need to know"}.'
    return { ok: false, error: `done: ${field}${issue?.message ?? 'invalid arguments'}. ${usage}` }
  }
  const data = parsed.data as { message?: string; question?: string; attachments?: string[] }
  const attachments = [...new Set((data.attachments ?? []).map(normalisePath))]
  const missing = await missingFiles(workspace, attachments)
  if (missing.length > 0) {
    return {
      ok: false,
      error: `done: ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist in the workspace. List only files that exist (check with the files tools), or leave attachments out.`,
    }
  }
  const question = data.question?.trim()
  if (role === 'subagent' && question && !data.message?.trim())
    return { ok: true, message: '', attachments, question }
  return { ok: true, message: data.message?.trim() ?? '', attachments }
}
