import { type Automation, AutomationDraft, type AutomationTrigger } from '../../shared/automations'
import { AppError } from '../../shared/errors'
import type { Workspace } from '../workspace'
import type { CheckedAutomation } from './automationStore'
import { checkTimeZone, parseSchedule } from './schedule'

export interface DraftContext {
  /** The user's zone: a schedule without one is read in it. */
  timeZone: () => string
  /** The workspace a file trigger's folder and a result file must be in. */
  workspace?: () => Workspace
  /** Toolset names the host offers, to refuse a typo at once. */
  toolsetNames?: () => readonly string[] | Promise<readonly string[]>
}

function firstIssue(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]
  if (!issue) return 'The automation is not valid.'
  const where = issue.path.map(String).join('.')
  return where ? `${where}: ${issue.message}` : issue.message
}

/** A trigger as stored: a schedule's plain form turned into cron with its zone, a folder checked in the workspace. */
export async function checkTrigger(
  trigger: AutomationTrigger,
  context: DraftContext,
): Promise<AutomationTrigger> {
  if (trigger.kind === 'schedule') {
    const timeZone = checkTimeZone(trigger.timeZone ?? context.timeZone())
    const parsed = parseSchedule(
      trigger.text && trigger.cron === trigger.text ? trigger.text : trigger.cron,
      timeZone,
    )
    return { kind: 'schedule', cron: parsed.cron, ...(parsed.text ? { text: parsed.text } : {}), timeZone }
  }
  if (trigger.kind === 'file') {
    const workspace = context.workspace?.()
    if (!workspace) return trigger
    let info: Awaited<ReturnType<Workspace['stat']>>
    try {
      info = await workspace.stat(trigger.folder)
    } catch (error) {
      throw new AppError(
        'VALIDATION_FAILED',
        `The folder "${trigger.folder}" cannot be watched: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
    if (info.type !== 'directory')
      throw new AppError(
        'VALIDATION_FAILED',
        `"${trigger.folder}" is a file; a file trigger watches a folder.`,
      )
    return { ...trigger, folder: info.path }
  }
  return trigger
}

/** Validates a draft (zod, schedule, folder, toolsets) into what the store keeps. */
export async function checkDraft(raw: unknown, context: DraftContext): Promise<CheckedAutomation> {
  const parsed = AutomationDraft.safeParse(raw)
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', firstIssue(parsed.error))
  const draft = parsed.data
  await checkToolsets(draft.toolsets, context)
  return { ...draft, trigger: await checkTrigger(draft.trigger, context) }
}

/** Validates a change of some fields; the trigger is checked again when it changes. */
export async function checkChange(
  current: Automation,
  change: Record<string, unknown>,
  context: DraftContext,
): Promise<Partial<CheckedAutomation>> {
  const { id: _id, createdAt: _c, updatedAt: _u, lastSlot: _l, ...base } = current
  const merged = await checkDraft({ ...base, ...stripUndefined(change) }, context)
  const out: Partial<CheckedAutomation> = {}
  for (const key of Object.keys(stripUndefined(change)) as (keyof CheckedAutomation)[]) {
    if (key in merged) (out as Record<string, unknown>)[key] = merged[key]
  }
  return out
}

async function checkToolsets(names: readonly string[] | undefined, context: DraftContext): Promise<void> {
  if (!names || !context.toolsetNames) return
  const known = await context.toolsetNames()
  const unknown = names.filter((name) => !known.includes(name))
  if (unknown.length > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `Unknown toolset ${unknown.map((n) => `"${n}"`).join(', ')}. Available: ${known.join(', ')}.`,
    )
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
}
