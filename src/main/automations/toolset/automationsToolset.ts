import { z } from 'zod'
import {
  ApprovalLevel,
  type Automation,
  AutomationName,
  AutomationPrompt,
  type AutomationTrigger,
} from '../../../shared/automations'
import { AppError } from '../../../shared/errors'
import { defineToolset, method } from '../../tools'
import type { AutomationService } from '../automationService'
import { describeTrigger } from '../describeTrigger'

export interface AutomationsToolsetEnvironment {
  readonly automations: () => AutomationService
}

const TriggerFields = {
  every: z
    .string()
    .max(200)
    .optional()
    .describe(
      'A plain schedule: "every weekday at 8:00", "every monday at 9:00", "every hour", "every month on the 1st at 9:00".',
    ),
  cron: z.string().max(200).optional().describe('A cron expression instead of "every", e.g. "0 8 * * 1-5".'),
  time_zone: z.string().max(100).optional().describe("IANA zone of the schedule (default: the user's)."),
  on_file_folder: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Run when a file appears or changes in this workspace folder (agent path); the file is attached.',
    ),
  on_file_glob: z
    .string()
    .max(500)
    .optional()
    .describe('Which files start a run, e.g. "*.pdf" (default every file).'),
  on_mail_folder: z
    .string()
    .max(500)
    .optional()
    .describe('Run when a new e-mail arrives in this folder, e.g. "INBOX".'),
  mail_from: z.string().max(300).optional().describe('Only mail whose sender contains this.'),
  mail_subject: z.string().max(300).optional().describe('Only mail whose subject contains this.'),
}

const Stored = z.object({
  id: z.string(),
  name: z.string(),
  prompt: z.string(),
  trigger: z.string(),
  approve: z.string(),
  enabled: z.boolean(),
  next_runs: z.array(z.string()),
  result_file: z.string().optional(),
})

function triggerOf(args: {
  every?: string | undefined
  cron?: string | undefined
  time_zone?: string | undefined
  on_file_folder?: string | undefined
  on_file_glob?: string | undefined
  on_mail_folder?: string | undefined
  mail_from?: string | undefined
  mail_subject?: string | undefined
}): AutomationTrigger | undefined {
  const chosen = [args.every, args.cron, args.on_file_folder, args.on_mail_folder].filter(
    (v) => v !== undefined,
  )
  if (chosen.length > 1)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give one trigger: every, cron, on_file_folder or on_mail_folder.',
    )
  const zone = args.time_zone ? { timeZone: args.time_zone } : {}
  if (args.every !== undefined) return { kind: 'schedule', cron: args.every, ...zone }
  if (args.cron !== undefined) return { kind: 'schedule', cron: args.cron, ...zone }
  if (args.on_file_folder !== undefined)
    return { kind: 'file', folder: args.on_file_folder, glob: args.on_file_glob ?? '*' }
  if (args.on_mail_folder !== undefined)
    return {
      kind: 'mail',
      folder: args.on_mail_folder,
      ...(args.mail_from ? { from: args.mail_from } : {}),
      ...(args.mail_subject ? { subject: args.mail_subject } : {}),
    }
  return undefined
}

export function createAutomationsToolset(env: AutomationsToolsetEnvironment) {
  const stored = async (automation: Automation) => {
    const summary = (await env.automations().summaries()).find((s) => s.automation.id === automation.id)
    return {
      id: automation.id,
      name: automation.name,
      prompt: automation.prompt,
      trigger: describeTrigger(automation.trigger),
      approve: automation.approve,
      enabled: automation.enabled,
      next_runs: summary?.nextRuns ?? [],
      ...(automation.output.kind === 'file' ? { result_file: automation.output.path } : {}),
    }
  }
  return defineToolset({
    name: 'automations',
    summary: 'Prompts that run later without the user: on a schedule, when a file lands, when mail arrives.',
    description:
      'Use it when the user asks for something to happen repeatedly or later ("every Monday…", "when an invoice lands in…"). ' +
      'The user confirms every automation you create or change, since it acts later without them. A run is unattended: ' +
      'its approval level (none, read, write, all) caps what it may do; calls above it are denied and reported.',
    methods: {
      create: method({
        description:
          'Creates an automation (the user confirms it) and returns it as stored with its next runs. Give one trigger; without one it runs only by hand.',
        input: z.object({
          name: AutomationName,
          prompt: AutomationPrompt.describe('What the agent does on each run, as an instruction.'),
          ...TriggerFields,
          approve: ApprovalLevel.default('read').describe(
            'What a run may do without anyone there: read (default), write (workspace files), all (also mail and the web), none.',
          ),
          toolsets: z
            .array(z.string().max(100))
            .max(50)
            .optional()
            .describe('Toolsets offered (default: as in chat).'),
          result_file: z
            .string()
            .max(4096)
            .optional()
            .describe('Also append each answer to this workspace file.'),
          missed: z
            .enum(['run-once', 'skip'])
            .default('run-once')
            .describe('A schedule missed while Bureau was closed.'),
        }),
        output: z.object({ stored: Stored }),
        examples: [
          {
            name: 'Monday reminder',
            prompt: 'Remind me to send the timesheet.',
            every: 'every monday at 9:00',
          },
        ],
        risk: 'external',
        run: async (args) => {
          const automation = await env.automations().create({
            name: args.name,
            prompt: args.prompt,
            trigger: triggerOf(args) ?? { kind: 'manual' },
            approve: args.approve,
            missed: args.missed,
            ...(args.toolsets ? { toolsets: args.toolsets } : {}),
            ...(args.result_file ? { output: { kind: 'file', path: args.result_file } } : {}),
          })
          return { stored: await stored(automation) }
        },
      }),
      list: method({
        description: 'Lists the automations with their trigger, next runs and last result.',
        input: z.object({}),
        output: z.object({
          automations: z.array(Stored.extend({ last_result: z.string().optional() })),
        }),
        examples: [{}],
        risk: 'read',
        run: async () => {
          const summaries = await env.automations().summaries()
          return {
            automations: await Promise.all(
              summaries.map(async (s) => ({
                ...(await stored(s.automation)),
                ...(s.lastRun ? { last_result: `${s.lastRun.status} at ${s.lastRun.startedAt}` } : {}),
              })),
            ),
          }
        },
      }),
      update: method({
        description: 'Changes an automation by name or id (the user confirms it); returns it as stored.',
        input: z.object({
          automation: z.string().min(1).max(100).describe('Its name or id.'),
          name: AutomationName.optional(),
          prompt: AutomationPrompt.optional(),
          ...TriggerFields,
          approve: ApprovalLevel.optional(),
          enabled: z.boolean().optional(),
        }),
        output: z.object({ stored: Stored }),
        examples: [{ automation: 'Monday reminder', every: 'every tuesday at 9:00' }],
        risk: 'external',
        run: async (args) => {
          const trigger = triggerOf(args)
          const automation = await env.automations().update(args.automation, {
            name: args.name,
            prompt: args.prompt,
            approve: args.approve,
            enabled: args.enabled,
            ...(trigger ? { trigger } : {}),
          })
          return { stored: await stored(automation) }
        },
      }),
      delete: method({
        description:
          'Deletes an automation by name or id (the user confirms it) and returns what was deleted.',
        input: z.object({ automation: z.string().min(1).max(100) }),
        output: z.object({ deleted: z.object({ id: z.string(), name: z.string() }) }),
        examples: [{ automation: 'Monday reminder' }],
        risk: 'external',
        run: async ({ automation }) => {
          const removed = await env.automations().remove(automation)
          return { deleted: { id: removed.id, name: removed.name } }
        },
      }),
      runNow: method({
        description: 'Starts one run of an automation now, unattended as its trigger would; returns at once.',
        input: z.object({ automation: z.string().min(1).max(100) }),
        output: z.object({ queued: z.boolean(), name: z.string() }),
        examples: [{ automation: 'Monday reminder' }],
        risk: 'write',
        run: async ({ automation }) => {
          const found = await env.automations().get(automation)
          const { queued } = await env.automations().startNow(found.id)
          return { queued, name: found.name }
        },
      }),
    },
  })
}
